#pragma once
// In-memory file_store with a byte budget: files by name behind a reader/writer lock.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

#include "storage/file_store.hpp"

namespace storefront::storage {

class memory_file_store final : public file_store {
  public:
    explicit memory_file_store(std::size_t max_bytes);

    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override;
    [[nodiscard]] core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override;

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::shared_ptr<const stored_file>, std::less<>> files_;
    std::size_t max_bytes_;
    std::size_t used_bytes_ = 0;
};

}  // namespace storefront::storage
