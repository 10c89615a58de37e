#pragma once
// In-memory pet_user_store: users by username behind a shared_mutex.

#include <functional>
#include <map>
#include <shared_mutex>
#include <string>

#include "storage/pet_store.hpp"

namespace storefront::storage {

class memory_pet_user_store final : public pet_user_store {
  public:
    // Throws std::invalid_argument for a non-positive id or a duplicate username.
    explicit memory_pet_user_store(std::vector<core::pet_user_credentials> users);

    [[nodiscard]] core::result<core::pet_user_credentials> find(std::string_view username) const override;
    [[nodiscard]] core::pet_user add(core::pet_user_credentials user) override;
    [[nodiscard]] core::result<core::pet_user> replace(
        std::string_view username, core::pet_user_credentials user
    ) override;
    [[nodiscard]] core::result<void> remove(std::string_view username) override;

  private:
    [[nodiscard]] std::int64_t next_id() const;  // call with the lock held

    mutable std::shared_mutex mutex_;
    std::map<std::string, core::pet_user_credentials, std::less<>> users_;
};

}  // namespace storefront::storage
