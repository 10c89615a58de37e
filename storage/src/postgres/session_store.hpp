#pragma once
// session_store on PostgreSQL: one row per refresh family, shared by every instance; a rotation locks its
// row (SELECT … FOR UPDATE), so two instances refreshing the same token cannot both win.

#include <cstddef>
#include <string>

#include "postgres/aggregate.hpp"
#include "storage/session_store.hpp"

namespace storefront::storage {

class pg_session_store final : public session_store {
  public:
    pg_session_store(const std::string& dsn, std::size_t pool_size);

    [[nodiscard]] core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override;
    [[nodiscard]] core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override;
    bool revoke(std::string_view id, std::int64_t user_id) override;

  private:
    detail::pg_aggregate aggregate_;
};

}  // namespace storefront::storage
