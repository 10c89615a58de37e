#pragma once
// pet_user_store on PostgreSQL: pet-store users keyed by username, ids "largest + 1" under the aggregate's
// advisory lock; every write is one transaction that notifies the aggregate's channel. Blocking: run through
// the offload pool.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "postgres/aggregate.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class pg_pet_user_store final : public pet_user_store {
  public:
    // `seed` is called only when the database has not been seeded yet (it hashes a password).
    pg_pet_user_store(
        const std::string& dsn,
        std::size_t pool_size,
        std::function<std::vector<core::pet_user_credentials>()> seed
    );

    [[nodiscard]] core::result<core::pet_user_credentials> find(std::string_view username) const override;
    [[nodiscard]] core::pet_user add(core::pet_user_credentials user) override;
    [[nodiscard]] core::result<core::pet_user> replace(
        std::string_view username, core::pet_user_credentials user
    ) override;
    [[nodiscard]] core::result<void> remove(std::string_view username) override;

  private:
    mutable detail::pg_aggregate aggregate_;
};

namespace detail {
// Writes the seed into empty tables (first start and reset_to_seed).
void write_pet_user_seed(pg_connection& conn, const std::vector<core::pet_user_credentials>& users);
}  // namespace detail

}  // namespace storefront::storage
