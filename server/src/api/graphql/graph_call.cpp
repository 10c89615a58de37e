// The per-request context of the resolvers: who calls (from the bearer token, looked up once) and the
// guard that turns storage failures into SERVICE_UNAVAILABLE.

#include "graph_call.hpp"

#include <utility>

#include "core/jwt.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

const core::actor& caller_of(graph_call& call) {
    if (!call.caller) {
        call.caller.emplace();
        const auto token = call.access_token;
        if (!token.empty()) {
            if (const auto user_id =
                    call.app.logins().access_user(call.app.tokens(), token, core::unix_now())) {
                if (const auto user = call.app.users().find_user(*user_id)) {
                    call.caller = core::actor{user->id, user->role};
                }
            }
        }
    }
    return *call.caller;
}

graphql::resolver guarded(graphql::resolver fn) {
    return [fn = std::move(fn)](const graphql::resolve_info& info) -> graphql::resolved {
        try {
            return fn(info);
        } catch (const std::exception& e) {
            if (storage_failure_of(std::current_exception())) {
                call_of(info).storage_trouble = true;
                return graphql::resolved::fail("Storage unavailable, retry later", "SERVICE_UNAVAILABLE");
            }
            // A real fault: the client sees a generic error, the log the details.
            log_event(
                "error",
                "graphql_resolver_exception",
                {field("type", info.parent_type), field("field", info.field_name), field("what", e.what())}
            );
            return graphql::resolved::fail("Internal server error", "INTERNAL_SERVER_ERROR");
        }
    };
}

}  // namespace storefront::server
