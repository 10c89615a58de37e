// memory_pet_image_store: blobs keyed by (pet, image id). Readers get a shared_ptr, so serving an image
// never copies it and a concurrent delete cannot free bytes still being written to a socket.

#include <cstddef>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "common/budget.hpp"
#include "memory/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

class memory_pet_image_store final : public pet_image_store {
  public:
    explicit memory_pet_image_store(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override {
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

    core::result<std::shared_ptr<const core::pet_image>> find(std::int64_t pet_id, std::int64_t image_id)
        const override {
        std::shared_lock lock(mutex_);
        const auto it = images_.find(key{pet_id, image_id});
        if (it == images_.end()) {
            return core::errc::not_found;
        }
        return it->second;
    }

    void remove_for_pet(std::int64_t pet_id) override {
        std::unique_lock lock(mutex_);
        auto it = images_.lower_bound(key{pet_id, 0});
        while (it != images_.end() && it->first.first == pet_id) {
            used_bytes_ -= it->second->bytes.size();
            it = images_.erase(it);
        }
    }

  private:
    using key = std::pair<std::int64_t, std::int64_t>;  // (pet id, image id)

    mutable std::shared_mutex mutex_;
    std::map<key, std::shared_ptr<const core::pet_image>> images_;
    std::size_t max_bytes_;
    std::size_t used_bytes_ = 0;
    std::int64_t last_id_ = 0;
};

}  // namespace

std::unique_ptr<pet_image_store> make_memory_pet_image_store(std::size_t max_bytes) {
    return std::make_unique<memory_pet_image_store>(max_bytes);
}

}  // namespace storefront::storage
