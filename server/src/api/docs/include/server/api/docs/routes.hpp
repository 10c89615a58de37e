#pragma once
// The documentation routes: both surfaces' OpenAPI documents (/api/v1/openapi.json, /api/v3/openapi.json)
// the Swagger UI page with its assets (/docs) and the GraphiQL page with its assets (/graphiql), all served
// from files embedded at build time.

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& docs_routes();

}  // namespace storefront::server
