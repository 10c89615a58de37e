// Users and tokens over GraphQL: profiles (never a password: a fixed mask), e-mail availability, login and
// refresh with the REST token pair (one login works on both surfaces), myProfile from the bearer token,
// and user writes under the REST write policy and seed-user protection. Argon2id runs right here: the
// handler runs operations that log in or set passwords on the password worker's threads.

#include <string>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "core/catalogue_rules.hpp"
#include "core/email.hpp"
#include "core/jwt.hpp"
#include "core/list_page.hpp"
#include "core/password.hpp"
#include "core/write_policy.hpp"
#include "graph_call.hpp"
#include "graph_values.hpp"
#include "resolvers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/user_refusals.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server {

namespace {

using graphql::resolve_info;
using graphql::resolved;

resolved unauthorized() {
    return resolved::fail("Unauthorized", "UNAUTHENTICATED");
}

std::string string_argument(const resolve_info& info, std::string_view name) {
    const auto* v = info.arguments.if_contains(name);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

resolved token_pair(const core::token_pair& pair) {
    return resolved::ok(boost::json::object{
        {"access_token", pair.access_token}, {"refresh_token", pair.refresh_token}});
}

// users(limit): the whole list, or its first `limit` users.
resolved users(const resolve_info& info) {
    auto& call = call_of(info);
    core::page_request page = core::every_item;
    if (const auto* limit = info.arguments.if_contains("limit"); limit != nullptr && !limit->is_null()) {
        const double n =
            limit->is_double() ? limit->get_double() : static_cast<double>(limit->to_number<double>());
        if (n < 0 || n != static_cast<double>(static_cast<std::int64_t>(n))) {
            return resolved::fail("limit must be a non-negative integer", "BAD_USER_INPUT");
        }
        if (n > 0) {
            page = {0, static_cast<std::size_t>(n)};
        }
    }
    boost::json::array out;
    for (const auto& u : call.app.users().list_users(page)) {
        out.push_back(graph_value(u, call.app));
    }
    return resolved::ok(std::move(out));
}

resolved user(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    const auto found = call.app.users().find_user(*id);
    return found ? resolved::ok(graph_value(*found, call.app)) : missing("User", *id);
}

// isAvailable(email): whether no user has this e-mail (the public service always says false).
resolved is_available(const resolve_info& info) {
    auto& call = call_of(info);
    const auto email = core::normalize_email(string_argument(info, "email"));
    if (!email) {
        return resolved::fail("email must be an email", "BAD_USER_INPUT");
    }
    const auto taken = call.app.users().email_taken(*email);
    if (!taken) {
        return refused(taken.error());
    }
    return resolved::ok(!*taken);
}

// myProfile: the user of the bearer access token.
resolved my_profile(const resolve_info& info) {
    auto& call = call_of(info);
    const auto token = call.access_token;
    if (token.empty()) {
        return unauthorized();
    }
    const auto user_id = call.app.logins().access_user(call.app.tokens(), token, core::unix_now());
    if (!user_id) {
        return unauthorized();
    }
    const auto found = call.app.users().find_user(*user_id);
    return found ? resolved::ok(graph_value(*found, call.app)) : unauthorized();
}

resolved login(const resolve_info& info) {
    auto& call = call_of(info);
    const std::string password = string_argument(info, "password");
    const std::string email_text = string_argument(info, "email");
    const auto email = core::normalize_email(email_text);
    // The brake first, as on REST: a refused guess costs no password check.
    std::string account = "store:" + (email ? *email : email_text);
    const auto admitted = call.app.brake().admit(account, call.client, login_brake::now_ms());
    if (!admitted.admitted) {
        call.braked_retry_after = admitted.retry_after;
        return resolved::fail(
            "Too many failed logins for this account or client; retry after " +
                std::to_string(admitted.retry_after) + " s",
            "TOO_MANY_REQUESTS"
        );
    }
    login_attempt attempt(call.app.brake(), std::move(account), std::string(call.client));
    std::optional<core::user_credentials> credentials;
    if (email) {
        if (auto found = call.app.users().find_credentials(*email)) {
            credentials = std::move(*found);
        }
    }
    // Unknown users still cost one verify, so timing does not reveal which e-mails exist.
    if (!credentials) {
        core::burn_verify_time(password);
        attempt.failed();
        return unauthorized();
    }
    if (!core::verify_password(password, credentials->password_hash)) {
        attempt.failed();
        return unauthorized();
    }
    attempt.succeeded();
    const std::int64_t now = core::unix_now();
    const std::int64_t user_id = credentials->profile.id;
    const core::session_ref session{core::random_session_id(), 0};
    const auto started = call.app.sessions().start(
        session.id, user_id, now + call.app.tokens().family_lifetime().count(), now
    );
    if (!started) {
        return refused(started.error());
    }
    return token_pair(call.app.tokens().issue(user_id, now, session));
}

resolved refresh_token(const resolve_info& info) {
    auto& call = call_of(info);
    const std::int64_t now = core::unix_now();
    const auto claims = call.app.tokens().verify_refresh(string_argument(info, "refreshToken"), now);
    if (!claims || claims->session.id.empty() || !call.app.users().find_user(claims->user_id)) {
        return unauthorized();
    }
    const auto generation = call.app.sessions().rotate(
        claims->session.id, claims->session.generation, now + call.app.tokens().family_lifetime().count(), now
    );
    if (!generation) {
        return unauthorized();
    }
    return token_pair(call.app.tokens().issue(claims->user_id, now, {claims->session.id, *generation}));
}

resolved email_taken() {
    return refused(core::errc::conflict, email_taken_message);
}

resolved user_write_refused(boost::system::error_code ec, std::int64_t id, std::string_view seed_message) {
    return refused(user_refusal(ec, id, seed_message));
}

resolved add_user(const resolve_info& info) {
    auto& call = call_of(info);
    const auto registration = core::read_user_registration(input_of(info.arguments.at("data")));
    if (!registration) {
        return invalid_input(registration.error());
    }
    if (auto allowed = core::may_register(call.app.write_policy(), caller_of(call), registration->role);
        !allowed) {
        return refused(allowed.error());
    }
    const auto taken = call.app.users().email_taken(registration->email);
    if (!taken) {
        return refused(taken.error());
    }
    if (*taken) {
        return email_taken();  // before spending a hash on it
    }
    const core::user_draft draft{
        registration->email,
        registration->name,
        core::hash_password(registration->password),
        registration->avatar,
        registration->role};
    const auto created = call.app.users().create_user(draft);
    if (!created) {
        return user_write_refused(created.error(), 0, {});
    }
    call.app.publish_here(
        "user.created", to_json(*created, call.app.public_url(), {}, call.app.password_mask())
    );
    return resolved::ok(graph_value(*created, call.app));
}

// The id of the user a write names: else bad_id, or a demo user's refusal with `seed_message`, given before
// anything else is looked at, as in REST (the public service lets updateUser(id: 1) through because the id
// arrives as a string).
boost::system::result<std::int64_t, resolved> user_target(
    const resolve_info& info, graph_call& call, std::string_view seed_message
) {
    const auto id = id_argument(info);
    if (!id) {
        return {boost::system::in_place_error, bad_id()};
    }
    if (const auto found = call.app.users().find_user(*id); found && found->seed) {
        return {boost::system::in_place_error, refused(core::errc::seed_user_read_only, seed_message)};
    }
    return {boost::system::in_place_value, *id};
}

resolved update_user(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = user_target(info, call, core::seed_user_update_message);
    if (!id) {
        return id.error();
    }
    const auto update = core::read_user_update(input_of(info.arguments.at("changes")));
    if (!update) {
        return invalid_input(update.error());
    }
    const core::account_change change{
        update->password.has_value() || update->email.has_value(), update->role.has_value()};
    if (auto allowed = core::may_change_user(call.app.write_policy(), caller_of(call), *id, change);
        !allowed) {
        return refused(allowed.error());
    }
    core::user_patch patch{update->email, update->name, std::nullopt, update->avatar, update->role};
    if (update->password) {
        patch.password_hash = core::hash_password(*update->password);
    }
    const auto updated = call.app.users().update_user(*id, patch);
    if (!updated) {
        return user_write_refused(updated.error(), *id, core::seed_user_update_message);
    }
    call.app.publish_here(
        "user.updated", to_json(*updated, call.app.public_url(), {}, call.app.password_mask())
    );
    if (change.credentials || change.role) {
        if (const auto revoked = call.app.logins().revoke_user(*id); !revoked) {
            return refused(revoked.error());
        }
    }
    return resolved::ok(graph_value(*updated, call.app));
}

resolved delete_user(const resolve_info& info) {
    auto& call = call_of(info);
    const auto id = user_target(info, call, core::seed_user_delete_message);
    if (!id) {
        return id.error();
    }
    if (auto allowed = core::may_change_user(call.app.write_policy(), caller_of(call), *id, {}); !allowed) {
        return refused(allowed.error());
    }
    const auto deleted = call.app.users().delete_user(*id);
    if (!deleted) {
        return user_write_refused(deleted.error(), *id, core::seed_user_delete_message);
    }
    call.app.publish_here("user.deleted", "{\"id\":" + std::to_string(*id) + "}");
    if (const auto revoked = call.app.logins().revoke_user(*id); !revoked) {
        return refused(revoked.error());
    }
    return resolved::ok(true);
}

resolved masked_password(const resolve_info&) {
    return resolved::ok(boost::json::string(core::masked_password));
}

}  // namespace

void add_account_resolvers(graphql::schema& schema) {
    schema.resolve("Query", "users", guarded(users));
    schema.resolve("Query", "user", guarded(user));
    schema.resolve("Query", "isAvailable", guarded(is_available));
    schema.resolve("Query", "myProfile", guarded(my_profile));
    schema.resolve("User", "password", masked_password);
    schema.resolve("Mutation", "login", guarded(login));
    schema.resolve("Mutation", "refreshToken", guarded(refresh_token));
    schema.resolve("Mutation", "addUser", guarded(add_user));
    schema.resolve("Mutation", "updateUser", guarded(update_user));
    schema.resolve("Mutation", "deleteUser", guarded(delete_user));
}

}  // namespace storefront::server
