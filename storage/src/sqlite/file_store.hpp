#pragma once
// file_store on SQLite: each upload one row with its bytes as a BLOB, within a byte budget counted over the
// whole file (uploads kept from earlier runs count). Blocking: callers offload it.

#include <cstddef>
#include <memory>

#include "sqlite/database.hpp"
#include "storage/file_store.hpp"

namespace storefront::storage {

class sqlite_file_store final : public file_store {
  public:
    sqlite_file_store(std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes);

    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override;
    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_bytes_;
};

}  // namespace storefront::storage
