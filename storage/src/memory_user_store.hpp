#pragma once
// In-memory user_store: immutable after construction, so concurrent readers need no locking.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/user_store.hpp"

namespace storefront::storage {

class memory_user_store final : public user_store {
  public:
    // Takes users with their password hashes (never clear text). E-mails are normalised with
    // core::normalize_email; throws std::invalid_argument for an invalid or duplicate e-mail or id.
    explicit memory_user_store(std::vector<core::user_credentials> users);

    [[nodiscard]] std::vector<core::user> list_users(const core::page_request& page) const override;
    [[nodiscard]] std::size_t user_count() const override;
    [[nodiscard]] std::optional<core::user> find_user(std::int64_t id) const override;
    [[nodiscard]] std::optional<core::user_credentials> find_credentials(std::string_view normalized_email
    ) const override;
    [[nodiscard]] bool email_taken(std::string_view normalized_email) const override;
    [[nodiscard]] std::uint64_t revision() const override;

  private:
    [[nodiscard]] const core::user_credentials* lookup(std::string_view normalized_email) const;

    std::vector<core::user_credentials> users_;                       // sorted by id
    std::map<std::string, std::size_t, std::less<>> index_by_email_;  // normalised e-mail -> position
};

}  // namespace storefront::storage
