#pragma once
// What the file and pet image adapters of every backend share: the byte budget check and a new upload
// stamped with its creation time (the adapter then gives it its random name).

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "common/clock.hpp"
#include "storage/file_store.hpp"

namespace storefront::storage::detail {

// True when `size` more bytes fit into a budget of `max_bytes` of which `used` are taken (`used` may exceed
// the budget when a smaller one is configured over kept data).
[[nodiscard]] constexpr bool fits_budget(std::size_t used, std::size_t size, std::size_t max_bytes) {
    return used <= max_bytes && size <= max_bytes - used;
}

// An upload as the file stores keep it, created now, still without its name.
[[nodiscard]] inline std::shared_ptr<stored_file> new_upload(
    std::string original_name, std::string media_type, std::string bytes
) {
    auto file = std::make_shared<stored_file>();
    file->original_name = std::move(original_name);
    file->media_type = std::move(media_type);
    file->bytes = std::move(bytes);
    file->created_at = now_ms();
    return file;
}

}  // namespace storefront::storage::detail
