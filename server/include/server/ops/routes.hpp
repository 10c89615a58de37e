#pragma once
// Operational routes outside the API surfaces: GET /metrics (Prometheus text format).

#include "server/ops/ops_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& ops_routes();

// The table with the services its handlers are called with, for the router.
[[nodiscard]] mounted_table mount_ops_routes(ops_services& services);

}  // namespace storefront::server
