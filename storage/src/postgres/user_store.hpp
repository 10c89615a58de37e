#pragma once
// user_store on PostgreSQL: one users table with a UNIQUE normalised e-mail and ids from an identity
// sequence (a deleted user's id is never given to another); every write is one transaction that notifies
// storefront_users. Blocking: callers run it through the offload pool.

#include <cstdint>
#include <string>
#include <vector>

#include "postgres/aggregate.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

class pg_user_store final : public user_store {
  public:
    // An empty database gets the seed users from `seed` once (called only then: hashing is slow).
    pg_user_store(
        const std::string& dsn,
        std::size_t pool_size,
        std::function<std::vector<core::user_credentials>()> seed
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
    [[nodiscard]] std::uint64_t revision() const override { return aggregate_.revision(); }

  private:
    mutable detail::pg_aggregate aggregate_;
};

namespace detail {
// Writes the seed users into an empty table (first start and reset_to_seed).
void write_user_seed(pg_connection& conn, const std::vector<core::user_credentials>& users);
}  // namespace detail

}  // namespace storefront::storage
