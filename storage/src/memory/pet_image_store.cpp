// memory_pet_image_store: blobs keyed by (pet, image id). Readers get a shared_ptr, so serving an image
// never copies it and a concurrent delete cannot free bytes still being written to a socket.

#include "memory/pet_image_store.hpp"

#include <mutex>

#include "common/budget.hpp"

namespace storefront::storage {

core::result<std::int64_t> memory_pet_image_store::add(std::int64_t pet_id, core::pet_image image) {
    auto blob = std::make_shared<const core::pet_image>(std::move(image));
    std::unique_lock lock(mutex_);
    const std::size_t size = blob->bytes.size();
    if (!detail::fits_budget(used_bytes_, size, max_bytes_)) {
        return core::errc::storage_full;
    }
    const std::int64_t id = ++last_id_;
    images_.emplace(key{pet_id, id}, std::move(blob));
    used_bytes_ += size;
    return id;
}

core::result<std::shared_ptr<const core::pet_image>> memory_pet_image_store::find(
    std::int64_t pet_id, std::int64_t image_id
) const {
    std::shared_lock lock(mutex_);
    const auto it = images_.find(key{pet_id, image_id});
    if (it == images_.end()) {
        return core::errc::not_found;
    }
    return it->second;
}

void memory_pet_image_store::remove_for_pet(std::int64_t pet_id) {
    std::unique_lock lock(mutex_);
    auto it = images_.lower_bound(key{pet_id, 0});
    while (it != images_.end() && it->first.first == pet_id) {
        used_bytes_ -= it->second->bytes.size();
        it = images_.erase(it);
    }
}

}  // namespace storefront::storage
