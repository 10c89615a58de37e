// The documentation routes: each surface's OpenAPI document under its own prefix, the Swagger UI page and
// the GraphiQL page.
// Open to anyone, no body. The documents list their own route, so the route-table check covers it.

#include "server/api/docs/routes.hpp"

#include <array>

#include "handlers_docs.hpp"

namespace storefront::server {

namespace {

using namespace route_rows;

// clang-format off
constexpr std::array routes{
    route{verb::get, "/api/v1/openapi.json", &handle_get_store_openapi,    open, none, "getOpenApiDocument", reads},
    route{verb::get, "/api/v3/openapi.json", &handle_get_petstore_openapi, open, none, "getOpenApiDocument", reads},
    route{verb::get, "/docs",                &handle_get_docs,             open, none, "getDocs",            reads},
    route{verb::get, "/docs/{file}",         &handle_get_docs_file,        open, none, "getDocsFile",        reads},
    route{verb::get, "/graphiql",            &handle_get_graphiql,         open, none, "getGraphiql",        reads},
    route{verb::get, "/graphiql/{file}",     &handle_get_graphiql_file,    open, none, "getGraphiqlFile",    reads},
};
// clang-format on

constexpr route_table table{"/", error_style::store, routes};

}  // namespace

const route_table& docs_routes() {
    return table;
}

}  // namespace storefront::server
