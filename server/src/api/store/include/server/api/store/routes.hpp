#pragma once
// The store surface's route table (/api/v1).

#include "server/api/store/store_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

// The table, to mount with the services its handlers are called with: store_routes().mount(services).
[[nodiscard]] const surface_table<store_services>& store_routes();

}  // namespace storefront::server
