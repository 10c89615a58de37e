#pragma once
// Port for users: public profiles in id order, credentials by normalised e-mail, registration, updates and
// deletion. Adapters are safe to call from several threads at once; every write is atomic and visible to
// every later call. E-mails are unique and looked up case-insensitively (ASCII): lookups take
// core::normalize_email output; a user is stored with the address as given (normalised, or under
// --compat public trimmed with its case as sent) and answered so.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "core/model.hpp"
#include "core/pagination.hpp"
#include "storage/store_bases.hpp"

namespace storefront::storage {

class user_store : public revisioned_store {
  public:
    virtual ~user_store() = default;

    // One page of users in id order (empty past the end).
    [[nodiscard]] virtual std::vector<core::user> list_users(const core::page_request& page) const = 0;
    [[nodiscard]] virtual std::size_t user_count() const = 0;

    // errc::not_found when there is none.
    [[nodiscard]] virtual core::result<core::user> find_user(std::int64_t id) const = 0;
    [[nodiscard]] virtual core::result<core::user_credentials> find_credentials(
        std::string_view normalized_email
    ) const = 0;
    // Whether a user has this e-mail.
    [[nodiscard]] virtual core::result<bool> email_taken(std::string_view normalized_email) const = 0;

    // errc::conflict (e-mail taken), errc::storage_full.
    [[nodiscard]] virtual core::result<core::user> create_user(const core::user_draft& draft) = 0;
    // errc::not_found, errc::seed_user_read_only, errc::conflict (the new e-mail is another user's).
    [[nodiscard]] virtual core::result<core::user> update_user(
        std::int64_t id, const core::user_patch& patch
    ) = 0;
    // errc::not_found, errc::seed_user_read_only.
    [[nodiscard]] virtual core::result<void> delete_user(std::int64_t id) = 0;
};

}  // namespace storefront::storage
