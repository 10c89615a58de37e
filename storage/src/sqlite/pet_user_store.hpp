#pragma once
// pet_user_store on SQLite: users keyed by their exact (case-sensitive) username, with the Argon2id hash of
// their password. Blocking: callers offload it.

#include <functional>
#include <memory>
#include <vector>

#include "sqlite/database.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class sqlite_pet_user_store final : public pet_user_store {
  public:
    // `seed` is called only when this file has never held the pet users (it hashes a password: slow).
    sqlite_pet_user_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::function<std::vector<core::pet_user_credentials>()>& seed
    );

    [[nodiscard]] core::result<core::pet_user_credentials> find(std::string_view username) const override;
    [[nodiscard]] core::pet_user add(core::pet_user_credentials user) override;
    [[nodiscard]] core::result<core::pet_user> replace(
        std::string_view username, core::pet_user_credentials user
    ) override;
    [[nodiscard]] core::result<void> remove(std::string_view username) override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace storefront::storage
