#pragma once
// pet_image_store on PostgreSQL: uploaded images as bytea rows with ids from an identity sequence, within a
// byte budget checked under the aggregate's lock. Blocking: run through the offload pool.

#include <cstddef>
#include <memory>
#include <string>

#include "postgres/aggregate.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class pg_pet_image_store final : public pet_image_store {
  public:
    pg_pet_image_store(const std::string& dsn, std::size_t pool_size, std::size_t max_bytes);

    [[nodiscard]] core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override;
    [[nodiscard]] core::result<std::shared_ptr<const core::pet_image>> find(
        std::int64_t pet_id, std::int64_t image_id
    ) const override;
    void remove_for_pet(std::int64_t pet_id) override;

  private:
    mutable detail::pg_aggregate aggregate_;
    std::size_t max_bytes_;
};

}  // namespace storefront::storage
