#pragma once
// In-memory pet_image_store: images as shared immutable blobs, with a total byte budget.

#include <cstddef>
#include <map>
#include <shared_mutex>
#include <utility>

#include "storage/pet_store.hpp"

namespace storefront::storage {

class memory_pet_image_store final : public pet_image_store {
  public:
    explicit memory_pet_image_store(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    [[nodiscard]] core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override;
    [[nodiscard]] core::result<std::shared_ptr<const core::pet_image>> find(
        std::int64_t pet_id, std::int64_t image_id
    ) const override;
    void remove_for_pet(std::int64_t pet_id) override;

  private:
    using key = std::pair<std::int64_t, std::int64_t>;  // (pet id, image id)

    mutable std::shared_mutex mutex_;
    std::map<key, std::shared_ptr<const core::pet_image>> images_;
    std::size_t max_bytes_;
    std::size_t used_bytes_ = 0;
    std::int64_t last_id_ = 0;
};

}  // namespace storefront::storage
