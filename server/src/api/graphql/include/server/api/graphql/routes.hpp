#pragma once
// The GraphQL surface's routes: /graphql (GET queries, POST operations) and its schema as SDL.

#include "server/api/graphql/graphql_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

[[nodiscard]] const surface_table<graphql_services>& graphql_routes();

}  // namespace storefront::server
