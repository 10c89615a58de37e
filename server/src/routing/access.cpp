// Access rules: /api/v1 bearer tokens, /api/v3 API keys and scoped bearer tokens. Only the decision lives
// here; the tokens are core's (core/jwt, core/pet_auth).

#include "server/routing/access.hpp"

#include "core/errc.hpp"
#include "core/jwt.hpp"
#include "server/codec/cookies.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

// The user a valid /api/v1 access token names (with their current role); errc::invalid_token otherwise,
// also when the user has been deleted since or the token's login has ended (logout, credentials change).
boost::asio::awaitable<core::result<core::actor>> store_caller(
    const http::request_header<>& head, const access_services& app
) {
    const auto token = access_token_of(head).token;  // the header, else the access cookie
    if (token.empty()) {
        co_return core::errc::invalid_token;
    }
    const std::int64_t now = core::unix_now();
    const auto claims = app.tokens.verify_access_claims(token, now);
    if (!claims) {
        co_return claims.error();
    }
    if (claims->session.empty()) {
        co_return core::errc::invalid_token;  // not a login's: nothing could end it
    }
    if (auto known = app.logins.known_caller(claims->session, claims->user_id)) {
        co_return std::move(*known);  // live, and its user read since: no storage trip
    }
    // The login must still be live: from memory on the hot path, from storage once a second at most.
    auto live = app.logins.cached(claims->session, claims->user_id);
    if (!live) {
        const auto checked =
            co_await app.storage.run([&] { return app.logins.check(claims->session, claims->user_id, now); });
        if (!checked) {
            co_return checked.error();
        }
        live = *checked;
    }
    if (!*live) {
        co_return core::errc::invalid_token;
    }
    const std::int64_t user_id = claims->user_id;
    const auto user = co_await app.storage.run([&] { return app.users.find_user(user_id); });
    if (!user) {
        co_return core::errc::invalid_token;
    }
    core::actor who{user->id, user->role};
    app.logins.remember_caller(claims->session, who);
    co_return who;
}

// The owner of a valid access token when one is sent; anonymous otherwise (a stale token in a client's
// storage must not break calls that do not need it).
boost::asio::awaitable<core::actor> optional_caller(
    const http::request_header<>& head, const access_services& app
) {
    auto caller = co_await store_caller(head, app);
    co_return caller ? *caller : core::actor{};
}

boost::asio::awaitable<or_response<core::actor>> store_access(
    access_rule rule, const http::request_header<>& head, const access_services& app
) {
    const bool open_writes = app.write_policy == core::write_policy::open;
    if (rule == access_rule::optional_bearer || (open_writes && rule != access_rule::bearer)) {
        co_return co_await optional_caller(head, app);
    }
    auto caller = co_await store_caller(head, app);
    if (!caller) {
        co_return error_response(caller.error());
    }
    if (rule == access_rule::catalogue_write) {
        if (auto allowed = core::may_write_catalogue(app.write_policy, *caller); !allowed) {
            co_return error_response(allowed.error());
        }
    }
    co_return *caller;
}

or_response<core::actor> pet_access(
    access_rule rule, const http::request_header<>& head, const access_services& app
) {
    const bool accepts_key = rule != access_rule::pet_write;
    const std::string_view scope = rule == access_rule::pet_read    ? core::scope_read_pets
                                   : rule == access_rule::pet_write ? core::scope_write_pets
                                                                    : std::string_view();
    if (accepts_key) {
        const std::string_view key = head["api_key"];
        if (!key.empty() && app.pet_keys.api_key_valid(key)) {
            return core::actor{};
        }
    }
    bool bad_token = false;
    if (!scope.empty()) {
        const std::string_view token = bearer_token(head[http::field::authorization]);
        if (!token.empty()) {
            const auto grant = app.pet_tokens.verify(token, core::unix_now());
            if (grant && core::has_scope(grant->scope, scope)) {
                return core::actor{};
            }
            if (grant) {
                return pet_forbidden(scope);
            }
            bad_token = true;
        }
    }
    return pet_unauthorized(accepts_key, scope, bad_token);
}

}  // namespace

boost::asio::awaitable<or_response<core::actor>> check_access(
    access_rule rule, const http::request_header<>& head, const access_services& app
) {
    switch (rule) {
        case access_rule::open:
            co_return core::actor{};
        case access_rule::bearer:
        case access_rule::optional_bearer:
        case access_rule::catalogue_write:
        case access_rule::account_write:
            co_return co_await store_access(rule, head, app);
        case access_rule::pet_api_key:
        case access_rule::pet_read:
        case access_rule::pet_write:
            co_return pet_access(rule, head, app);
    }
    co_return internal_error();
}

}  // namespace storefront::server
