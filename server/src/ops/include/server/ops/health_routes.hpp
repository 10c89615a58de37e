#pragma once
// The probe routes for load balancers and orchestrators: GET /healthz (the process serves) and GET /readyz
// (this instance can serve everything now). Outside /api/*, open, and their table is not access-logged:
// health checks every second would drown the requests that matter.

#include "server/ops/ops_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

// The table, to mount with the services its handlers are called with: health_routes().mount(services).
[[nodiscard]] const surface_table<ops_services>& health_routes();

}  // namespace storefront::server
