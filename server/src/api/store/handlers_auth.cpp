// Auth handlers: login (Argon2id off the I/O thread), refresh and profile with JWT bearer tokens.

#include <boost/algorithm/string/predicate.hpp>

#include "core/email.hpp"
#include "core/errc.hpp"
#include "core/jwt.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

response token_pair_response(const core::token_pair& pair) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("access_token")
        .value(pair.access_token)
        .key("refresh_token")
        .value(pair.refresh_token)
        .end_object();
    return json_response(http::status::created, std::move(out));
}

}  // namespace

// POST /auth/login {email, password} : a fresh access/refresh token pair (201)
handler_result handle_post_auth_login(request_context& ctx, store_services& app) {
    auto decoded = decode_body(ctx.request[http::field::content_type], ctx.request.body());
    if (!decoded) {
        co_return std::move(decoded).error();
    }
    const auto& fields = *decoded;
    const auto email_text = fields.string("email");
    const auto password = fields.string("password");
    if (!email_text || !password) {
        co_return error_response(core::errc::invalid_credentials);
    }
    const auto email = core::normalize_email(*email_text);
    std::optional<core::user_credentials> credentials;
    if (email) {
        if (auto found = co_await app.storage([&] { return app.users().find_credentials(*email); })) {
            credentials = std::move(*found);
        }
    }
    // Unknown users still cost one verify, so timing does not reveal which e-mails exist.
    // Named locals, not temporaries, go into co_await: GCC 12 destroys temporaries in a co_await
    // expression twice (GCC bug 99576).
    std::string password_text(*password);
    std::string stored_hash = credentials ? credentials->password_hash : std::string();
    auto verification = app.passwords().verify(std::move(password_text), std::move(stored_hash));
    const auto match = co_await std::move(verification);
    if (!match) {
        co_return error_response(core::errc::busy);
    }
    if (!*match || !credentials) {
        co_return error_response(core::errc::invalid_credentials);
    }
    // Each login starts a refresh family, so a stolen refresh token can be detected and revoked.
    const std::int64_t now = core::unix_now();
    const std::int64_t user_id = credentials->profile.id;
    const core::session_ref session{core::random_session_id(), 0};
    const auto started = co_await app.storage([&] {
        return app.sessions().start(session.id, user_id, now + app.tokens().refresh_lifetime().count(), now);
    });
    if (!started) {
        co_return error_response(started.error());
    }
    co_return token_pair_response(app.tokens().issue(user_id, now, session));
}

// POST /auth/refresh-token {refreshToken} : a new token pair for a valid refresh token (201)
handler_result handle_post_auth_refresh_token(request_context& ctx, store_services& app) {
    auto decoded = decode_body(ctx.request[http::field::content_type], ctx.request.body());
    if (!decoded) {
        co_return std::move(decoded).error();
    }
    const auto& fields = *decoded;
    if (!fields.contains("refreshToken")) {
        co_return validation_failed({{missing_field_message("refreshToken")}});
    }
    const auto token = fields.string("refreshToken");
    if (!token) {
        co_return validation_failed({{not_string_message("refreshToken")}});
    }
    const std::int64_t now = core::unix_now();
    const auto claims = app.tokens().verify_refresh(*token, now);
    if (!claims) {
        co_return error_response(claims.error());
    }
    if (claims->session.id.empty()) {
        co_return error_response(core::errc::invalid_refresh_token);  // not from a login's family
    }
    if (!co_await app.storage([&] { return app.users().find_user(claims->user_id); })) {
        co_return error_response(core::errc::invalid_refresh_token);  // the user is gone
    }
    // Rotation: this token is spent; presenting it (or any older one) again revokes the family.
    const auto generation = co_await app.storage([&] {
        return app.sessions().rotate(
            claims->session.id, claims->session.generation, now + app.tokens().refresh_lifetime().count(), now
        );
    });
    if (!generation) {
        co_return error_response(generation.error());
    }
    co_return token_pair_response(app.tokens().issue(claims->user_id, now, {claims->session.id, *generation})
    );
}

// POST /auth/logout (Authorization: Bearer) : revokes the refresh family of the caller's login, so no
// refresh token of that login works again (access tokens stay valid until they expire: they are stateless)
handler_result handle_post_auth_logout(request_context& ctx, store_services& app) {
    const auto claims = app.tokens().verify_access_claims(
        bearer_token(ctx.request[http::field::authorization]), core::unix_now()
    );
    if (!claims) {
        co_return error_response(claims.error());
    }
    bool revoked = false;
    if (!claims->session.empty()) {
        revoked =
            co_await app.storage([&] { return app.sessions().revoke(claims->session, claims->user_id); });
    }
    std::string out;
    json_writer(out).begin_object().key("loggedOut").value(revoked).end_object();
    co_return json_response(http::status::ok, std::move(out));
}

// GET /auth/profile (Authorization: Bearer) : the token owner's public profile
handler_result handle_get_auth_profile(request_context& ctx, store_services& app) {
    const auto token = bearer_token(ctx.request[http::field::authorization]);
    if (token.empty()) {
        co_return error_response(core::errc::invalid_token);
    }
    const auto user_id = app.tokens().verify_access(token, core::unix_now());
    if (!user_id) {
        co_return error_response(user_id.error());
    }
    const auto user = co_await app.storage([&] { return app.users().find_user(*user_id); });
    if (!user) {
        co_return error_response(core::errc::invalid_token);  // the user is gone
    }
    co_return json_response(http::status::ok, to_json(*user, app.public_url(), {}, app.password_mask()));
}

}  // namespace storefront::server
