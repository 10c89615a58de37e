#pragma once
// The probe routes for load balancers and orchestrators: GET /healthz (the process serves) and GET /readyz
// (this instance can serve everything now). Outside /api/*, open, and their table is not access-logged:
// health checks every second would drown the requests that matter.

#include "server/ops/ops_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& health_routes();

// The table with the services its handlers are called with, for the router.
[[nodiscard]] mounted_table mount_health_routes(ops_services& services);

}  // namespace storefront::server
