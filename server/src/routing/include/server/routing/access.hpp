#pragma once
// Access rules of the route tables, checked on the request head before any body byte is read.

#include <boost/asio/awaitable.hpp>

#include "core/auth_tokens.hpp"
#include "core/pet_auth.hpp"
#include "core/write_policy.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/route.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/pet_credentials.hpp"
#include "server/services/session_gate.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// What the access rules check credentials against: /api/v1 tokens and users (looked up through the
// storage offload), the write policy, and the /api/v3 API keys and tokens.
struct access_services {
    const core::auth_tokens& tokens;
    storage::user_store& users;
    session_gate& logins;
    blocking_offload& storage;
    core::write_policy write_policy;
    const core::pet_tokens& pet_tokens;
    const pet_credentials& pet_keys;
};

// The caller, or the answer when `rule` refuses them: 401 for missing or bad credentials (with
// WWW-Authenticate), 403 for a valid caller the rule does not admit.
[[nodiscard]] boost::asio::awaitable<or_response<core::actor>> check_access(
    access_rule rule, const http::request_header<>& head, const access_services& app
);

}  // namespace storefront::server
