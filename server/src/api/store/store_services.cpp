// The store surface's cached list pages: served from memory, rebuilt on the storage pool when the store
// has moved on since the list was built.

#include "server/api/store/store_services.hpp"

namespace storefront::server {

boost::asio::awaitable<cached_list_page> store_services::cached_list(
    fragment_list& list, std::optional<core::page_request> page
) const {
    const auto read = [&list, page] {
        // The length comes from the snapshot current() returns; page() looks the snapshot up once more (a
        // second cache hit in /metrics). A write landing between the two can pair a page of one revision
        // with the length of the next, as two requests around that write would see them.
        const auto snapshot = list.current();
        cached_list_page out;
        out.total = snapshot->items.size();
        out.json = page ? list.page(*page) : snapshot->all_items;
        return out;
    };
    if (list.stale()) {
        co_return co_await storage(read);
    }
    co_return read();
}

}  // namespace storefront::server
