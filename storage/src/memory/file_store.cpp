// memory_file_store: uploads kept whole in memory up to a byte budget, named by 128 random bits so that
// names cannot be guessed from one another.

#include "storage/file_store.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "common/budget.hpp"
#include "common/random_name.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

class memory_file_store final : public file_store {
  public:
    explicit memory_file_store(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override {
        auto file = detail::new_upload(std::move(original_name), std::move(media_type), std::move(bytes));
        std::unique_lock lock(mutex_);
        if (!detail::fits_budget(used_bytes_, file->bytes.size(), max_bytes_)) {
            return core::errc::storage_full;
        }
        do {
            file->name = detail::random_name() + extension;
        } while (files_.contains(file->name));
        used_bytes_ += file->bytes.size();
        files_.emplace(file->name, file);
        return std::shared_ptr<const stored_file>(std::move(file));
    }

    core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override {
        std::shared_lock lock(mutex_);
        const auto it = files_.find(name);
        if (it == files_.end()) {
            return core::errc::not_found;
        }
        return it->second;
    }

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::shared_ptr<const stored_file>, std::less<>> files_;
    std::size_t max_bytes_;
    std::size_t used_bytes_ = 0;
};

}  // namespace

std::unique_ptr<file_store> make_memory_file_store(std::size_t max_bytes) {
    return std::make_unique<memory_file_store>(max_bytes);
}

}  // namespace storefront::storage
