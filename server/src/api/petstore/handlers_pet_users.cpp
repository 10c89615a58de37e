// User handlers of /api/v3: create (one or a list), login/logout, read, update and delete by username.
// Passwords are hashed with Argon2id on the password worker and never returned.

#include <array>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/url/pct_string_view.hpp>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "core/jwt.hpp"
#include "core/pet_auth.hpp"
#include "core/pet_rules.hpp"
#include "pet_answers.hpp"
#include "pet_params.hpp"
#include "server/api/petstore/handlers.hpp"
#include "server/api/petstore/pet_json.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"
#include "server/services/login_check.hpp"

namespace storefront::server {

namespace {

constexpr std::size_t max_users_per_list = 50;  // each one costs an Argon2id hash
constexpr std::int64_t session_lifetime_ms = 3600 * 1000;

response invalid_login() {
    return pet_error(http::status::bad_request, "Invalid username/password supplied");
}

// The decoded {username} path segment, or a 400.
or_response<std::string> path_username(const request_context& ctx) {
    const auto encoded = boost::urls::make_pct_string_view(ctx.param("username"));
    if (encoded) {
        std::string username = encoded->decode();
        if (core::valid_username(username)) {
            return username;
        }
    }
    return pet_error(http::status::bad_request, "Invalid username supplied");
}

// A random 63-bit decimal for the login answer (the petstore's "session", which nothing checks).
std::string random_session() {
    std::array<unsigned char, 8> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("RAND_bytes failed");
    }
    std::uint64_t n = 0;
    for (unsigned char b : bytes) {
        n = (n << 8) | b;
    }
    return std::to_string(n >> 1);
}

// Hashes a new password into `user` when one was given (Argon2id on the password worker). False when the
// worker's queue is full (answer 503). Named locals, not temporaries, go into co_await (GCC bug 99576).
boost::asio::awaitable<bool> apply_password(
    pet_services& app, core::pet_user_credentials& user, std::optional<std::string>& password
) {
    if (!password) {
        co_return true;
    }
    auto hashing = app.passwords().hash(std::move(*password));
    auto hashed = co_await std::move(hashing);
    if (!hashed) {
        co_return false;
    }
    user.password_hash = std::move(*hashed);
    co_return true;
}

response owner_credentials_needed() {
    response r = pet_error(
        http::status::unauthorized,
        "Replacing an existing user's password needs that user's credentials (Authorization: Basic) or a "
        "token with the admin:users scope"
    );
    r.with_header("WWW-Authenticate", R"(Basic realm="petstore users")");
    return r;
}

// Whether the request may replace the credentials of existing user `username` (issue 45): a bearer token
// with the admin:users scope, or HTTP Basic with that user's username and current password (checked under
// the login brake, so this is no way around it). nullopt: allowed; else the answer (401, 429, 503).
boost::asio::awaitable<std::optional<response>> refuse_replacement(
    request_context& ctx,
    pet_services& app,
    const core::pet_user_credentials& existing,
    bool admin_only = false
) {
    const std::string_view authorization = ctx.request[http::field::authorization];
    const std::string_view token = bearer_token(authorization);
    if (!token.empty()) {
        const auto grant = app.pet_tokens().verify(token, core::unix_now());
        if (grant && core::has_scope(grant->scope, core::scope_admin_users)) {
            co_return std::nullopt;
        }
        co_return owner_credentials_needed();
    }
    auto basic = core::parse_basic_authorization(authorization);
    if (admin_only || !basic || basic->id != existing.profile.username) {
        co_return owner_credentials_needed();
    }
    std::string account = "pet:" + basic->id;
    const auto admitted = app.brake().admit(account, ctx.client, login_brake::now_ms());
    if (!admitted.admitted) {
        co_return login_braked(admitted.retry_after);
    }
    login_attempt attempt(app.brake(), std::move(account), std::string(ctx.client));
    std::string password = std::move(basic->secret);
    std::string stored_hash = existing.password_hash;
    auto verification = app.passwords().verify(std::move(password), std::move(stored_hash));
    const auto match = co_await std::move(verification);
    if (!match) {
        co_return pet_error_response(core::errc::busy);
    }
    if (!*match) {
        attempt.failed();
        co_return owner_credentials_needed();
    }
    attempt.succeeded();
    co_return std::nullopt;
}

}  // namespace

// POST /user {User} : creates (or, as the petstore does, replaces) the user with that username
handler_result handle_post_pet_user(request_context& ctx, pet_services& app) {
    auto input = pet_params::read_body(ctx, read_user);
    if (!input) {
        co_return std::move(input).error();
    }
    // Replacing an existing user is replacing their password: their credentials or an admin's token.
    const std::string& name = input->profile.username;
    const auto existing = co_await app.storage([&] { return app.pet_users().find(name); });
    if (existing) {
        if (auto refused = co_await refuse_replacement(ctx, app, *existing)) {
            co_return std::move(*refused);
        }
    }
    core::pet_user_credentials user{std::move(input->profile), {}};
    const bool hashed = co_await apply_password(app, user, input->password);
    if (!hashed) {
        co_return pet_error_response(core::errc::busy);
    }
    const auto stored = co_await app.storage([&] { return app.pet_users().add(std::move(user)); });
    co_return json_response(http::status::ok, to_json(stored));
}

// POST /user/createWithList [User, ...] (JSON) : creates every user; all or none are stored
handler_result handle_post_pet_user_create_with_list(request_context& ctx, pet_services& app) {
    auto decoded = decode_pet_document(ctx.request[http::field::content_type], ctx.request.body(), false);
    if (!decoded) {
        co_return std::move(decoded).error();
    }
    auto inputs = read_user_list(*decoded, max_users_per_list);
    if (!inputs) {
        co_return pet_validation_failed(inputs.error());
    }
    for (const auto& input : *inputs) {  // replacing existing users: an admin's token only
        const std::string& name = input.profile.username;
        const auto existing = co_await app.storage([&] { return app.pet_users().find(name); });
        if (existing) {
            if (auto refused = co_await refuse_replacement(ctx, app, *existing, true)) {
                co_return std::move(*refused);
            }
        }
    }
    std::vector<core::pet_user_credentials> users;
    for (auto& input : *inputs) {
        core::pet_user_credentials user{std::move(input.profile), {}};
        const bool hashed = co_await apply_password(app, user, input.password);
        if (!hashed) {
            co_return pet_error_response(core::errc::busy);
        }
        users.push_back(std::move(user));
    }
    std::vector<core::pet_user> stored;
    for (auto& user : users) {
        auto added = co_await app.storage([&] { return app.pet_users().add(std::move(user)); });
        stored.push_back(std::move(added));
    }
    co_return json_response(http::status::ok, to_json(stored));
}

// GET /user/login?username=&password= : a session string with X-Rate-Limit and X-Expires-After headers
handler_result handle_get_pet_user_login(request_context& ctx, pet_services& app) {
    auto username = pet_params::single_query(ctx, "username");
    auto password = pet_params::single_query(ctx, "password");
    if (!username || !password) {
        co_return invalid_login();
    }
    auto& name = *username;
    auto& secret = *password;
    if (!name || !secret || name->empty() || secret->empty()) {
        co_return invalid_login();
    }
    // The brake first: a refused guess costs no password check.
    std::string account = "pet:" + *name;
    const auto admitted = app.brake().admit(account, ctx.client, login_brake::now_ms());
    if (!admitted.admitted) {
        co_return login_braked(admitted.retry_after);
    }
    login_attempt attempt(app.brake(), std::move(account), std::string(ctx.client));
    const auto user = co_await app.storage([&] { return app.pet_users().find(*name); });
    // Unknown users (and users without a password) still cost one verify, so timing reveals nothing.
    auto check =
        check_password(app.passwords(), attempt, std::move(*secret), user ? user->password_hash : "");
    const auto refused = co_await std::move(check);
    if (refused == core::errc::busy) {
        co_return pet_error_response(*refused);
    }
    if (refused) {
        co_return invalid_login();
    }
    response r = pet_params::json_string_response("Logged in user session: " + random_session());
    r.deterministic = false;  // a new session string each time: no ETag
    const std::string expires = iso8601_ms(core::unix_now() * 1000 + session_lifetime_ms);
    r.with_header("X-Rate-Limit", "5000").with_header("X-Expires-After", expires);
    co_return r;
}

// GET /user/logout : nothing to end (login keeps no server-side session); always 200
handler_result handle_get_pet_user_logout(request_context&, pet_services&) {
    co_return pet_params::json_string_response("User logged out");
}

// GET /user/{username} : one user, without password
handler_result handle_get_pet_user(request_context& ctx, pet_services& app) {
    const auto find = [](pet_services& s, const std::string& name) { return s.pet_users().find(name); };
    const auto profile = [](const core::pet_user_credentials& user) {
        return json_response(http::status::ok, to_json(user.profile));
    };
    return pet_params::answer_for_key(path_username(ctx), app, "User", find, profile);
}

// PUT /user/{username} {User} : replaces the user (a body username renames it; no password keeps the old one)
handler_result handle_put_pet_user(request_context& ctx, pet_services& app) {
    auto username = path_username(ctx);
    if (!username) {
        co_return std::move(username).error();
    }
    auto input = pet_params::read_body(ctx, read_user);
    if (!input) {
        co_return std::move(input).error();
    }
    const std::string& current = (*username);
    const auto existing = co_await app.storage([&] { return app.pet_users().find(current); });
    if (!existing) {
        co_return pet_error_response(existing.error(), "User");
    }
    if (input->password) {  // a new password: the user's own credentials or an admin's token
        if (auto refused = co_await refuse_replacement(ctx, app, *existing)) {
            co_return std::move(*refused);
        }
    }
    core::pet_user_credentials user{std::move(input->profile), existing->password_hash};
    const bool hashed = co_await apply_password(app, user, input->password);
    if (!hashed) {
        co_return pet_error_response(core::errc::busy);
    }
    const std::string new_name = user.profile.username;
    const auto stored =
        co_await app.storage([&] { return app.pet_users().replace(current, std::move(user)); });
    if (!stored) {
        if (stored.error() == core::errc::conflict) {
            co_return pet_error(http::status::conflict, "username " + new_name + " is already taken");
        }
        co_return pet_error_response(stored.error(), "User");
    }
    co_return json_response(http::status::ok, to_json(*stored));
}

// DELETE /user/{username} : removes the user
handler_result handle_delete_pet_user(request_context& ctx, pet_services& app) {
    const auto remove = [](pet_services& s, const std::string& name) { return s.pet_users().remove(name); };
    const auto deleted = [] { return pet_params::json_string_response("User deleted"); };
    return pet_params::answer_for_key(path_username(ctx), app, "User", remove, deleted);
}

}  // namespace storefront::server
