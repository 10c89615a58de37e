// Auth handlers: login (Argon2id off the I/O thread), refresh and profile with JWT bearer tokens.

#include <boost/algorithm/string/predicate.hpp>

#include "core/email.hpp"
#include "core/errc.hpp"
#include "core/jwt.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/codec/cookies.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"
#include "server/services/login_check.hpp"

namespace storefront::server {

namespace {

// The login cookies of `pair` (browser apps: HttpOnly, so scripts never see the tokens), each living as
// long as its token.
void set_login_cookies(
    response& r, const core::token_pair& pair, const request_context& ctx, store_services& app
) {
    r.with_header(
         "Set-Cookie",
         set_cookie_value(access_cookie_name, pair.access_token, {app.tokens().access_lifetime(), ctx.secure})
    )
        .with_header(
            "Set-Cookie",
            set_cookie_value(
                refresh_cookie_name, pair.refresh_token, {app.tokens().refresh_lifetime(), ctx.secure}
            )
        );
}

response token_pair_response(const core::token_pair& pair, const request_context& ctx, store_services& app) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("access_token")
        .value(pair.access_token)
        .key("refresh_token")
        .value(pair.refresh_token)
        .end_object();
    // Tokens are never kept by a cache on the way (RFC 6749 §5.1).
    auto r = json_response(http::status::created, std::move(out));
    r.with_header("Cache-Control", "no-store").with_header("Pragma", "no-cache");
    set_login_cookies(r, pair, ctx, app);
    return r;
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
    // The brake first: a refused guess costs no password check.
    std::string account = "store:" + (email ? *email : std::string(*email_text));
    const auto admitted = app.brake().admit(account, ctx.client, login_brake::now_ms());
    if (!admitted.admitted) {
        co_return login_braked(admitted.retry_after);
    }
    login_attempt attempt(app.brake(), std::move(account), std::string(ctx.client));
    std::optional<core::user_credentials> credentials;
    if (email) {
        if (auto found = co_await app.storage([&] { return app.users().find_credentials(*email); })) {
            credentials = std::move(*found);
        }
    }
    // Unknown users still cost one verify, so timing does not reveal which e-mails exist.
    // A named awaitable, not a temporary, goes into co_await: GCC 12 destroys temporaries in a co_await
    // expression twice (GCC bug 99576).
    auto check = check_password(
        app.passwords(), attempt, std::string(*password), credentials ? credentials->password_hash : ""
    );
    const auto refused = co_await std::move(check);
    if (refused) {
        co_return error_response(*refused);
    }
    // Each login starts a refresh family, so a stolen refresh token can be detected and revoked.
    const std::int64_t now = core::unix_now();
    const std::int64_t user_id = credentials->profile.id;
    const core::session_ref session{core::random_session_id(), 0};
    const auto started = co_await app.storage([&] {
        return app.sessions().start(session.id, user_id, now + app.tokens().family_lifetime().count(), now);
    });
    if (!started) {
        co_return error_response(started.error());
    }
    co_return token_pair_response(app.tokens().issue(user_id, now, session), ctx, app);
}

// POST /auth/refresh-token {refreshToken} : a new token pair for a valid refresh token (201); with an
// empty body, the refresh cookie's token
handler_result handle_post_auth_refresh_token(request_context& ctx, store_services& app) {
    std::optional<std::string_view> token;
    const auto cookie = request_cookie(ctx.request, refresh_cookie_name);
    std::optional<body_fields> decoded;
    if (ctx.request.body().empty() && cookie && !cookie->empty()) {
        token = *cookie;
    } else {
        auto body = decode_body(ctx.request[http::field::content_type], ctx.request.body());
        if (!body) {
            co_return std::move(body).error();
        }
        decoded = std::move(*body);
        if (!decoded->contains("refreshToken")) {
            co_return validation_failed({{missing_field_message("refreshToken")}});
        }
        token = decoded->string("refreshToken");
        if (!token) {
            co_return validation_failed({{not_string_message("refreshToken")}});
        }
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
            claims->session.id, claims->session.generation, now + app.tokens().family_lifetime().count(), now
        );
    });
    if (!generation) {
        co_return error_response(generation.error());
    }
    co_return token_pair_response(
        app.tokens().issue(claims->user_id, now, {claims->session.id, *generation}), ctx, app
    );
}

// POST /auth/logout (Authorization: Bearer, or the access cookie) : revokes the refresh family of the
// caller's login, so neither its refresh tokens nor its access tokens work again (other logins of the same
// user stay), and clears the login cookies
handler_result handle_post_auth_logout(request_context& ctx, store_services& app) {
    const auto claims =
        app.tokens().verify_access_claims(access_token_of(ctx.request).token, core::unix_now());
    if (!claims) {
        co_return error_response(claims.error());
    }
    bool revoked = false;
    if (!claims->session.empty()) {
        revoked = co_await app.storage([&] { return app.logins().revoke(claims->session, claims->user_id); });
    }
    std::string out;
    json_writer(out).begin_object().key("loggedOut").value(revoked).end_object();
    auto r = json_response(http::status::ok, std::move(out));
    r.with_header(
         "Set-Cookie", set_cookie_value(access_cookie_name, "", {std::chrono::seconds(0), ctx.secure})
    )
        .with_header(
            "Set-Cookie", set_cookie_value(refresh_cookie_name, "", {std::chrono::seconds(0), ctx.secure})
        );
    co_return r;
}

// GET /auth/profile (Authorization: Bearer) : the token owner's public profile
handler_result handle_get_auth_profile(request_context& ctx, store_services& app) {
    if (!ctx.actor.user_id) {  // the bearer rule admitted a live login's token; this is a safety net
        co_return error_response(core::errc::invalid_token);
    }
    const std::int64_t user_id = *ctx.actor.user_id;
    const auto user = co_await app.storage([&] { return app.users().find_user(user_id); });
    if (!user) {
        co_return error_response(core::errc::invalid_token);  // the user is gone
    }
    auto r = json_response(http::status::ok, to_json(*user, app.public_url(), {}, app.password_mask()));
    r.with_header("Cache-Control", "private, no-store");  // personal data: no shared cache keeps it
    co_return r;
}

}  // namespace storefront::server
