#pragma once
// session_store on SQLite: one row per refresh family in the shared database file; every call is one
// IMMEDIATE transaction, so a rotation and a replay racing each other cannot both win.

#include <memory>

#include "sqlite/database.hpp"
#include "storage/session_store.hpp"

namespace storefront::storage {

class sqlite_session_store final : public session_store {
  public:
    explicit sqlite_session_store(std::shared_ptr<detail::sqlite_database> db);

    [[nodiscard]] core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override;
    [[nodiscard]] core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override;
    bool revoke(std::string_view id, std::int64_t user_id) override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace storefront::storage
