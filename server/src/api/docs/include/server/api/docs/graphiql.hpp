#pragma once
// The GraphiQL page (GET /graphiql) as a ready answer, for the GraphQL endpoint to serve to browsers
// (GET /graphql with Accept: text/html). Surfaces do not include each other, so the composition root hands
// it to the GraphQL surface as a plain function pointer (`response (*)(const request_context&)`).

#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

// The page's HTML with its ETag (304 and compression from routing), `Cache-Control: no-cache` and the page's
// Content-Security-Policy. Its script picks the endpoint from the browser's URL: /sandbox/{id}/graphql on
// /sandbox/{id}/graphiql or /sandbox/{id}/graphql, /graphql anywhere else.
[[nodiscard]] response graphiql_page(const request_context& ctx);

}  // namespace storefront::server
