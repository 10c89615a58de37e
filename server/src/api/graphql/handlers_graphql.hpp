#pragma once
// The GraphQL surface's handlers (GraphQL over HTTP: the parameters, media types and statuses the
// graphql-http audit suite checks).

#include "server/api/graphql/graphql_services.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// GET /graphql?query=&operationName=&variables=&extensions= : a query (a mutation: 405 Allow: POST);
// with Accept: text/html and no query, the GraphiQL page
handler_result handle_get_graphql(request_context& ctx, graphql_services& app);
// POST /graphql {query, operationName, variables, extensions} : any operation
handler_result handle_post_graphql(request_context& ctx, graphql_services& app);
// GET /graphql/schema.graphql : the schema as SDL
handler_result handle_get_graphql_schema(request_context& ctx, graphql_services& app);

}  // namespace storefront::server
