// User handlers: pages of public profiles, one profile, e-mail availability, registration (Argon2id on the
// password worker), updates and deletes under the write policy. Seed users are read-only.

#include <algorithm>
#include <string>

#include "core/catalogue_rules.hpp"
#include "core/email.hpp"
#include "core/jwt.hpp"
#include "core/pagination.hpp"
#include "core/write_policy.hpp"
#include "list_answer.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/store_params.hpp"
#include "server/api/store/user_refusals.hpp"
#include "server/codec/cookies.hpp"
#include "server/codec/request_body.hpp"
#include "server/codec/response.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

using namespace store_params;

response email_taken() {
    return error_response(core::errc::conflict, email_taken_message);
}

// The answer to a refused user write.
response user_write_error(
    const request_context& ctx,
    const store_services& app,
    boost::system::error_code ec,
    std::int64_t id,
    std::string_view seed_message
) {
    return refusal_answer(ctx, app, "User", id, user_refusal(ec, id, seed_message));
}

// The {id} of the user a write names, or the answer: 400 for a bad id, and, before anything else is looked
// at (as the public service does), the refusal with `seed_message` for one of its demo users.
boost::asio::awaitable<or_response<std::int64_t>> user_target(
    const request_context& ctx, store_services& app, std::string_view seed_message
) {
    const auto id = path_id(ctx);
    if (!id) {
        co_return id;
    }
    const auto user = co_await app.storage([&] { return app.users().find_user(*id); });
    if (user && user->seed) {
        co_return error_response(core::errc::seed_user_read_only, seed_message);
    }
    co_return id;
}

// Under roles the user routes are open on the head (as under open), so the caller of a bearer token is
// worked out here: the token's user when the token is valid and its login live, else anonymous.
boost::asio::awaitable<core::actor> bearer_caller(const request_context& ctx, store_services& app) {
    const auto token = access_token_of(ctx.request).token;
    if (token.empty()) {
        co_return core::actor{};
    }
    const auto user = co_await app.storage([&]() -> core::result<core::user> {
        const auto user_id = app.logins().access_user(app.tokens(), token, core::unix_now());
        if (!user_id) {
            return user_id.error();
        }
        return app.users().find_user(*user_id);
    });
    co_return user ? core::actor{user->id, user->role} : core::actor{};
}

// The body of a user just created or updated: under --compat public its `password` is the one the request
// sent, as the public service answers (`sent`: none sent, the placeholder), and the answer is kept by no
// cache; otherwise the usual item body.
response written_user(
    http::status status, const core::user& user, store_services& app, const std::optional<std::string>& sent
) {
    if (app.compat() != core::compat_mode::public_service || !sent || sent->empty()) {
        return json_response(status, store_lists::item_json(user, app));
    }
    auto r = json_response(status, to_json(user, app.public_url(), {}, *sent));
    r.with_header("Cache-Control", "no-store");
    r.deterministic = false;
    return r;
}

// The address a user is stored with: `normalized` (trimmed, lower case), or under --compat public the
// body's own text, trimmed, with its case as sent (the public service answers it so); it is the same address,
// compared case-insensitively by every store.
std::string stored_email(
    const request_context& ctx, const store_services& app, const std::string& normalized
) {
    if (app.compat() != core::compat_mode::public_service) {
        return normalized;
    }
    const auto fields = decode_body(ctx.request[http::field::content_type], ctx.request.body());
    const auto text = fields ? fields->string("email") : std::nullopt;
    if (!text) {
        return normalized;
    }
    std::string_view sent = *text;
    constexpr std::string_view spaces = " \t\r\n\f\v";
    sent.remove_prefix(std::min(sent.find_first_not_of(spaces), sent.size()));
    sent = sent.substr(0, sent.find_last_not_of(spaces) + 1);
    const auto same = core::normalize_email(sent);
    return same && *same == normalized ? std::string(sent) : normalized;
}

// Personal data under roles: only the client's own cache keeps it, and no shared answer is replayed.
void make_private(response& r) {
    r.with_header("Cache-Control", "private, no-store");
    r.deterministic = false;
}

}  // namespace

// GET /users?offset=&limit=&sortBy=&order=&q=&select= : one page of users (id order by default); under
// roles, for admins only (e-mails and roles are personal data)
handler_result handle_get_users(request_context& ctx, store_services& app) {
    const bool roles = app.write_policy() == core::write_policy::roles;
    if (roles) {
        const auto caller = co_await bearer_caller(ctx, app);
        if (!caller.is_admin()) {
            co_return error_response(caller.user_id ? core::errc::forbidden : core::errc::invalid_token);
        }
    }
    store_lists::user_list source;
    auto r = co_await store_lists::serve_list(ctx, app, source);
    if (roles) {
        make_private(r);
    }
    co_return r;
}

// GET /users/{id}?select= : one user's public profile (never the password; a mask under --compat public);
// under roles, the user's own or an admin's (others: 404, as if there were none)
handler_result handle_get_user(request_context& ctx, store_services& app) {
    const auto find = [](store_services& s, std::int64_t id) { return s.users().find_user(id); };
    const auto missing = [&ctx, &app](std::int64_t id) { return entity_missing(ctx, app, "User", id); };
    if (app.write_policy() != core::write_policy::roles) {
        co_return co_await store_lists::serve_item(ctx, app, path_id, find, missing, &app.user_json());
    }
    const auto id = path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    const auto caller = co_await bearer_caller(ctx, app);
    if (!caller.is_admin() && caller.user_id != *id) {
        co_return missing(*id);
    }
    auto r = co_await store_lists::serve_item(ctx, app, path_id, find, missing, &app.user_json());
    make_private(r);
    co_return r;
}

// POST /users {name, email, password, avatar, role?} : 201 the new user, who can log in at once
handler_result handle_post_user(request_context& ctx, store_services& app) {
    const auto registration = validated_body(ctx, core::read_user_registration);
    if (!registration) {
        co_return registration.error();
    }
    if (auto allowed = core::may_register(app.write_policy(), ctx.actor, registration->role); !allowed) {
        co_return error_response(allowed.error());
    }
    const auto taken = co_await app.storage([&] { return app.users().email_taken(registration->email); });
    if (!taken) {
        co_return error_response(taken.error());
    }
    if (*taken) {
        co_return email_taken();  // before spending a hash on it
    }
    std::string password = registration->password;  // a named local: GCC bug 99576 (see handlers_auth)
    auto hashing = app.passwords().hash(std::move(password));
    const auto hash = co_await std::move(hashing);
    if (!hash) {
        co_return error_response(core::errc::busy);
    }
    const core::user_draft draft{
        stored_email(ctx, app, registration->email),
        registration->name,
        *hash,
        registration->avatar,
        registration->role};
    const auto created = co_await app.users_write([&] { return app.users().create_user(draft); });
    if (!created) {
        co_return user_write_error(ctx, app, created.error(), 0, {});
    }
    co_await app.publish("user.created", store_lists::item_json(*created, app));
    co_return written_user(http::status::created, *created, app, registration->password);
}

// PUT /users/{id} {any subset of name, email, password, avatar, role} : the updated user
handler_result handle_put_user(request_context& ctx, store_services& app) {
    const auto id = co_await user_target(ctx, app, core::seed_user_update_message);
    if (!id) {
        co_return id.error();
    }
    const auto update = validated_body(ctx, core::read_user_update);
    if (!update) {
        co_return update.error();
    }
    const core::account_change change{
        update->password.has_value() || update->email.has_value(), update->role.has_value()};
    if (auto allowed = core::may_change_user(app.write_policy(), ctx.actor, *id, change); !allowed) {
        co_return error_response(allowed.error());
    }
    core::user_patch patch{
        update->email ? std::optional<std::string>(stored_email(ctx, app, *update->email)) : std::nullopt,
        update->name,
        std::nullopt,
        update->avatar,
        update->role};
    if (update->password) {
        std::string password = *update->password;
        auto hashing = app.passwords().hash(std::move(password));
        const auto hash = co_await std::move(hashing);
        if (!hash) {
            co_return error_response(core::errc::busy);
        }
        patch.password_hash = *hash;
    }
    const auto updated = co_await app.users_write([&] { return app.users().update_user(*id, patch); });
    if (!updated) {
        co_return user_write_error(ctx, app, updated.error(), *id, core::seed_user_update_message);
    }
    if (change.credentials || change.role) {
        // Every login of the account ends: whoever held its tokens must log in with the new credentials.
        const auto revoked = co_await app.storage([&] { return app.logins().revoke_user(*id); });
        if (!revoked) {
            co_return error_response(revoked.error());
        }
    }
    co_await app.publish("user.updated", store_lists::item_json(*updated, app));
    auto r = written_user(http::status::ok, *updated, app, update->password);
    if (ctx.actor.user_id == *id && r.extra_headers.find("Cache-Control") == std::string::npos) {
        r.with_header("Cache-Control", "private, no-store");  // one's own record: personal data
    }
    co_return r;
}

// DELETE /users/{id} : true
handler_result handle_delete_user(request_context& ctx, store_services& app) {
    const auto id = co_await user_target(ctx, app, core::seed_user_delete_message);
    if (!id) {
        co_return id.error();
    }
    if (auto allowed = core::may_change_user(app.write_policy(), ctx.actor, *id, {}); !allowed) {
        co_return error_response(allowed.error());
    }
    if (const auto removed = co_await app.users_write([&] { return app.users().delete_user(*id); });
        !removed) {
        co_return user_write_error(ctx, app, removed.error(), *id, core::seed_user_delete_message);
    }
    co_await app.publish_deleted("user.deleted", *id);
    if (const auto revoked = co_await app.storage([&] { return app.logins().revoke_user(*id); }); !revoked) {
        co_return error_response(revoked.error());
    }
    co_return deleted();
}

// POST /users/is-available {email} : whether no user has that e-mail yet
handler_result handle_post_users_is_available(request_context& ctx, store_services& app) {
    auto decoded = decode_body(ctx.request[http::field::content_type], ctx.request.body());
    if (!decoded) {
        co_return std::move(decoded).error();
    }
    const auto& fields = *decoded;
    core::validation_errors problems;
    std::optional<std::string> email;
    if (!fields.contains("email")) {
        problems.messages.push_back(missing_field_message("email"));
    } else if (auto text = fields.string("email"); !text) {
        problems.messages.push_back(not_string_message("email"));
    } else if (email = core::normalize_email(*text); !email) {
        problems.messages.push_back("email must be an email");
    }
    if (!problems.messages.empty()) {
        co_return validation_failed(problems);
    }
    const auto taken = co_await app.storage([&] { return app.users().email_taken(*email); });
    if (!taken) {
        co_return error_response(taken.error());
    }
    // The public service answers false whatever the address (a bug its users reported); suites written
    // against it assert that, so --compat public does too (the check above still validates the body).
    const bool available = !*taken && app.compat() != core::compat_mode::public_service;
    // The public service answers this POST with Nest's default 201; storefront with 200 unless --compat asks.
    const auto status =
        app.compat() == core::compat_mode::public_service ? http::status::created : http::status::ok;
    co_return json_response(status, available ? R"({"isAvailable":true})" : R"({"isAvailable":false})");
}

}  // namespace storefront::server
