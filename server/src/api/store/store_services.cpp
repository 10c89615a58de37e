// The store surface's cached list pages: served from memory, rebuilt on the storage pool when the store
// has moved on since the list was built.

#include "server/api/store/store_services.hpp"

namespace storefront::server {

boost::asio::awaitable<std::shared_ptr<const prepared_body>> store_services::cached_page(
    fragment_list& list, core::page_request page
) const {
    if (list.stale()) {
        co_return co_await storage([&] { return list.page(page); });
    }
    co_return list.page(page);
}

boost::asio::awaitable<std::shared_ptr<const prepared_body>> store_services::cached_all(fragment_list& list
) const {
    if (list.stale()) {
        co_return co_await storage([&] { return list.all(); });
    }
    co_return list.all();
}

}  // namespace storefront::server
