#pragma once
// The probe routes for load balancers and orchestrators: GET /healthz (the process serves) and GET /readyz
// (this instance can serve everything now). Outside /api/*, open, and their table is not access-logged:
// health checks every second would drown the requests that matter.

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& health_routes();

}  // namespace storefront::server
