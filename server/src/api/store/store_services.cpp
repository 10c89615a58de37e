// The store surface's cached list pages: served from memory, rebuilt on the storage pool when the store
// has moved on since the list was built.

#include "server/api/store/store_services.hpp"

namespace storefront::server {

boost::asio::awaitable<cached_list_page> store_services::cached_list(
    fragment_list& list, std::optional<core::page_request> page
) const {
    const auto read = [&list, page] {
        // Page and length from one snapshot, so they always belong to the same revision.
        const auto snapshot = list.current();
        cached_list_page out;
        out.total = snapshot->items.size();
        out.json = page ? snapshot->page(*page) : snapshot->all_items;
        return out;
    };
    if (list.stale()) {
        co_return co_await storage(read);
    }
    co_return read();
}

std::optional<std::string> store_services::cached_item(fragment_list& list, std::int64_t id) const {
    if (!p_.sole_writer) {
        return std::nullopt;
    }
    // Never rebuilt here: that reads the whole list, on the storage pool, for the next list request.
    const auto snapshot = list.current_if_loaded();
    const std::string* json = snapshot ? snapshot->item(id) : nullptr;
    if (json == nullptr) {
        return std::nullopt;
    }
    return *json;
}

}  // namespace storefront::server
