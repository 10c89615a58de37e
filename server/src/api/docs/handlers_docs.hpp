#pragma once
// Handlers of the documentation routes (server/src/api/docs/routes.cpp).

#include "server/routing/route.hpp"

namespace storefront::server {

handler_result handle_get_docs(request_context& ctx, void* services);
handler_result handle_get_docs_file(request_context& ctx, void* services);
handler_result handle_get_graphiql(request_context& ctx, void* services);
handler_result handle_get_graphiql_file(request_context& ctx, void* services);
handler_result handle_get_store_openapi(request_context& ctx, void* services);
handler_result handle_get_petstore_openapi(request_context& ctx, void* services);

}  // namespace storefront::server
