#pragma once
// The documentation routes: both surfaces' OpenAPI documents (/api/v1/openapi.json, /api/v3/openapi.json)
// and the Swagger UI page with its assets (/docs), all served from files embedded at build time.

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& docs_routes();

}  // namespace storefront::server
