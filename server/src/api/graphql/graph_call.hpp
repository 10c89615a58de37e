#pragma once
// What every resolver of one GraphQL request sees (resolve_info::context): the view's store services, the
// request's Authorization header, and what went wrong beyond the GraphQL errors (storage trouble turns the
// whole answer into a 503 with Retry-After, as REST answers it).

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/write_policy.hpp"
#include "graphql/executor.hpp"
#include "server/api/store/store_services.hpp"

namespace storefront::server {

struct graph_call {
    store_services& app;
    std::string_view access_token;      // the bearer token, or the access cookie's (codec/cookies.hpp)
    std::optional<core::actor> caller;  // the token's user, looked up on first need
    bool storage_trouble = false;       // a store could not be reached or was too busy: answer 503
    std::string_view client;            // the client's address (login brake)
    // Set when the login brake refused a login: answer 429 with this Retry-After.
    std::optional<std::uint32_t> braked_retry_after;
};

// The caller `call` acts for: the user of a valid bearer access token (with their role), else anonymous.
[[nodiscard]] const core::actor& caller_of(graph_call& call);

// The resolver `fn` with storage failures turned into a SERVICE_UNAVAILABLE field error (and the call
// marked for a 503), so a broken database is never an INTERNAL_SERVER_ERROR; any other exception is a
// real fault: INTERNAL_SERVER_ERROR for the client, the details in the log.
[[nodiscard]] graphql::resolver guarded(graphql::resolver fn);

// The call of a resolver's context.
[[nodiscard]] inline graph_call& call_of(const graphql::resolve_info& info) {
    return *static_cast<graph_call*>(info.context);
}

}  // namespace storefront::server
