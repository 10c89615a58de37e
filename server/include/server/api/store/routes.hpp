#pragma once
// The store surface's route table (/api/v1).

#include "server/api/store/store_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& store_routes();

// The table with the services its handlers are called with, for the router.
[[nodiscard]] mounted_table mount_store_routes(store_services& services);

}  // namespace storefront::server
