// Write-policy decisions: pure functions of the policy, the caller and the target.

#include "core/write_policy.hpp"

#include "core/enum_names.hpp"

namespace storefront::core {

namespace {

constexpr enum_name<write_policy> write_policy_names[] = {
    {write_policy::open, "open"},
    {write_policy::roles, "roles"},
};

}  // namespace

std::optional<write_policy> parse_write_policy(std::string_view text) noexcept {
    return value_named(write_policy_names, text);
}

result<void> may_write_catalogue(write_policy policy, const actor& caller) noexcept {
    if (policy == write_policy::open) {
        return {};
    }
    if (!caller.user_id) {
        return errc::invalid_token;
    }
    if (!caller.is_admin()) {
        return errc::forbidden;
    }
    return {};
}

result<void> may_change_user(
    write_policy policy, const actor& caller, std::int64_t target, const account_change& change
) noexcept {
    // Credentials and roles are the account's own under every policy: anything else is a takeover.
    const bool self_or_admin = caller.is_admin() || (caller.user_id && *caller.user_id == target);
    if (change.role && !caller.is_admin()) {
        return caller.user_id ? errc::forbidden : errc::invalid_token;
    }
    if (change.credentials && !self_or_admin) {
        return caller.user_id ? errc::forbidden : errc::invalid_token;
    }
    if (policy == write_policy::open) {
        return {};
    }
    if (!caller.user_id) {
        return errc::invalid_token;
    }
    if (!self_or_admin) {
        return errc::forbidden;
    }
    return {};
}

result<void> may_register(write_policy, const actor& caller, std::string_view role) noexcept {
    // Under every policy: only an admin gives a new account a role other than customer.
    if (role != "customer" && !caller.is_admin()) {
        return caller.user_id ? result<void>(errc::forbidden) : result<void>(errc::invalid_token);
    }
    return {};
}

}  // namespace storefront::core
