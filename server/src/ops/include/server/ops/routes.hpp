#pragma once
// Operational routes outside the API surfaces: GET /metrics (Prometheus text format).

#include "server/ops/ops_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

// The table, to mount with the services its handlers are called with: ops_routes().mount(services).
[[nodiscard]] const surface_table<ops_services>& ops_routes();

}  // namespace storefront::server
