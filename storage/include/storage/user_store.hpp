#pragma once
// Port for users: public profiles in id order, and credentials looked up by normalised e-mail.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/pagination.hpp"

namespace storefront::storage {

class user_store {
  public:
    virtual ~user_store() = default;

    // One page of users in id order (empty past the end).
    [[nodiscard]] virtual std::vector<core::user> list_users(const core::page_request& page) const = 0;
    [[nodiscard]] virtual std::size_t user_count() const = 0;

    [[nodiscard]] virtual std::optional<core::user> find_user(std::int64_t id) const = 0;

    // `normalized_email` as produced by core::normalize_email.
    [[nodiscard]] virtual std::optional<core::user_credentials> find_credentials(
        std::string_view normalized_email
    ) const = 0;
    [[nodiscard]] virtual bool email_taken(std::string_view normalized_email) const = 0;

    // Increases whenever users change, so callers may cache serialised pages per revision.
    [[nodiscard]] virtual std::uint64_t revision() const = 0;
};

}  // namespace storefront::storage
