#pragma once
// Operational routes outside the API surfaces: GET /metrics (Prometheus text format).

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& ops_routes();

}  // namespace storefront::server
