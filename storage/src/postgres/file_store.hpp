#pragma once
// file_store on PostgreSQL: uploads as bytea rows under random names, the byte budget checked against the
// table's total inside the inserting transaction (under the aggregate's lock, so instances share one budget).

#include <cstddef>
#include <string>

#include "postgres/aggregate.hpp"
#include "storage/file_store.hpp"

namespace storefront::storage {

class pg_file_store final : public file_store {
  public:
    pg_file_store(const std::string& dsn, std::size_t pool_size, std::size_t max_bytes);

    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override;
    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override;

  private:
    mutable detail::pg_aggregate aggregate_;
    std::size_t max_bytes_;
};

}  // namespace storefront::storage
