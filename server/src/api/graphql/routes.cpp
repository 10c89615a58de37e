// The GraphQL surface's table: open to anyone (myProfile reads the bearer token itself, mutations follow
// the write policy in their resolvers), JSON bodies, errors in the GraphQL shape.

#include "server/api/graphql/routes.hpp"

#include <array>

#include "handlers_graphql.hpp"

namespace storefront::server {

namespace {

using namespace route_rows;

// clang-format off
constexpr std::array routes{
    route{verb::get,  "/graphql",                &on<&handle_get_graphql>,        open, none,         "graphql",          reads},
    route{verb::post, "/graphql",                &on<&handle_post_graphql>,       open, json_or_form, "graphql",          by_body},
    route{verb::get,  "/graphql/schema.graphql", &on<&handle_get_graphql_schema>, open, none,         "getGraphqlSchema", reads},
};
// clang-format on

}  // namespace

const surface_table<graphql_services>& graphql_routes() {
    return table_of<graphql_services, routes>("/graphql", error_style::graphql);
}

}  // namespace storefront::server
