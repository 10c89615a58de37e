// Write-policy decisions: pure functions of the policy, the caller and the target.

#include "core/write_policy.hpp"

namespace storefront::core {

std::optional<write_policy> parse_write_policy(std::string_view text) noexcept {
    if (text == "open") {
        return write_policy::open;
    }
    if (text == "roles") {
        return write_policy::roles;
    }
    return std::nullopt;
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
    write_policy policy, const actor& caller, std::int64_t target, bool changes_role
) noexcept {
    if (policy == write_policy::open) {
        return {};
    }
    if (!caller.user_id) {
        return errc::invalid_token;
    }
    if (caller.is_admin()) {
        return {};
    }
    if (*caller.user_id != target || changes_role) {
        return errc::forbidden;
    }
    return {};
}

result<void> may_register(write_policy policy, const actor& caller, std::string_view role) noexcept {
    if (policy == write_policy::roles && role == "admin" && !caller.is_admin()) {
        return caller.user_id ? result<void>(errc::forbidden) : result<void>(errc::invalid_token);
    }
    return {};
}

}  // namespace storefront::core
