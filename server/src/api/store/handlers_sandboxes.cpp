// POST /api/v1/sandboxes: a fresh random sandbox id and the base URLs that use it.

#include "server/api/store/handlers.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

handler_result handle_post_sandbox(request_context& ctx, store_services& app) {
    if (app.sandboxes() == nullptr) {  // inside a sandbox: ids are made in the shared view
        co_return route_not_found(ctx.request.method_string(), ctx.path);
    }
    co_return co_await app.sandboxes()->create();
}

}  // namespace storefront::server
