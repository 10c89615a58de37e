#pragma once
// Who may write: the caller of a request, the --write-policy choice, and the decisions that depend on
// them. Seed rows are read-only under every policy (checked by the handlers against the row's seed flag).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/errc.hpp"

namespace storefront::core {

// Anonymous (no user id) or a user with a role.
struct actor {
    std::optional<std::int64_t> user_id;
    std::string role;  // empty when anonymous

    [[nodiscard]] bool is_admin() const noexcept { return user_id && role == "admin"; }
};

enum class write_policy {
    open,   // anyone may write (as the public service); seed rows stay read-only
    roles,  // catalogue writes need an admin; users change only themselves unless admin
};

// "open" or "roles"; nullopt otherwise.
[[nodiscard]] std::optional<write_policy> parse_write_policy(std::string_view text) noexcept;

// Products, categories and files. errc::invalid_token without a caller, errc::forbidden for a non-admin.
[[nodiscard]] result<void> may_write_catalogue(write_policy policy, const actor& caller) noexcept;

// What an update or delete of an account touches.
struct account_change {
    bool credentials = false;  // the password or the e-mail (the login)
    bool role = false;
};

// Update or delete user `target`. Under every policy a role change needs an admin, and a credentials
// change the account's owner or an admin; other changes are free under open, and self-or-admin under
// roles. errc::invalid_token without a caller, errc::forbidden for a caller who may not.
[[nodiscard]] result<void> may_change_user(
    write_policy policy, const actor& caller, std::int64_t target, const account_change& change
) noexcept;

// Register a user with `role`: under every policy any role but "customer" needs an admin caller
// (errc::invalid_token when anonymous, errc::forbidden for a non-admin), so self-registration is a customer.
[[nodiscard]] result<void> may_register(
    write_policy policy, const actor& caller, std::string_view role
) noexcept;

// The texts clients see for seed rows (the user ones are the public service's).
inline constexpr std::string_view seed_product_message =
    "Seed data is read-only; create your own product to change it";
inline constexpr std::string_view seed_category_message =
    "Seed data is read-only; create your own category to change it";
inline constexpr std::string_view seed_user_update_message =
    "This user is not available for updating; instead, create your own user to update.";
inline constexpr std::string_view seed_user_delete_message =
    "This user is not available for deleting; instead, create your own user to delete.";

}  // namespace storefront::core
