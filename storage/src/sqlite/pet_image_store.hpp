#pragma once
// pet_image_store on SQLite: images as BLOB rows within a byte budget counted over the whole file (images
// kept from earlier runs count). Blocking: callers offload it.

#include <cstddef>
#include <memory>

#include "sqlite/database.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class sqlite_pet_image_store final : public pet_image_store {
  public:
    sqlite_pet_image_store(std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes);

    [[nodiscard]] core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override;
    [[nodiscard]] core::result<std::shared_ptr<const core::pet_image>> find(
        std::int64_t pet_id, std::int64_t image_id
    ) const override;
    void remove_for_pet(std::int64_t pet_id) override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_bytes_;
};

}  // namespace storefront::storage
