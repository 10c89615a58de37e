#pragma once
// user_store on SQLite: one row per user with its Argon2id hash (never clear text) and a UNIQUE normalised
// e-mail; every write is one IMMEDIATE transaction with its checks inside. Blocking: callers offload it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sqlite/database.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

class sqlite_user_store final : public user_store {
  public:
    static constexpr std::size_t default_max_users = 100'000;

    // `seed` is called only when this file has never held the users (hashing the seed passwords is slow).
    sqlite_user_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::function<std::vector<core::user_credentials>()>& seed,
        std::size_t max_users = default_max_users
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
    void committed(detail::sqlite_connection::transaction& tx);

    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_users_;
};

}  // namespace storefront::storage
