#pragma once
// In-memory user_store: users in an id-ordered map plus an index from normalised e-mail to id, behind one
// reader/writer lock; every write bumps an atomic revision after the change.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/user_store.hpp"

namespace storefront::storage {

class memory_user_store final : public user_store {
  public:
    static constexpr std::size_t default_max_users = 100'000;

    // Takes users with their password hashes (never clear text). E-mails are normalised with
    // core::normalize_email; throws std::invalid_argument for an invalid or duplicate e-mail or id.
    explicit memory_user_store(
        std::vector<core::user_credentials> users, std::size_t max_users = default_max_users
    );

    [[nodiscard]] std::vector<core::user> list_users(const core::page_request& page) const override;
    [[nodiscard]] std::size_t user_count() const override;
    [[nodiscard]] core::result<core::user> find_user(std::int64_t id) const override;
    [[nodiscard]] core::result<core::user_credentials> find_credentials(std::string_view normalized_email
    ) const override;
    [[nodiscard]] bool email_taken(std::string_view normalized_email) const override;
    [[nodiscard]] core::result<core::user> create_user(const core::user_draft& draft) override;
    [[nodiscard]] core::result<core::user> update_user(std::int64_t id, const core::user_patch& patch)
        override;
    [[nodiscard]] core::result<void> delete_user(std::int64_t id) override;
    [[nodiscard]] std::uint64_t revision() const override;

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::user_credentials> users_;
    std::map<std::string, std::int64_t, std::less<>> id_by_email_;  // normalised e-mail -> id
    std::int64_t last_id_ = 0;
    std::size_t max_users_;
    std::atomic<std::uint64_t> revision_{1};
};

}  // namespace storefront::storage
