#pragma once
// Port for uploaded files (POST /files/upload): bytes with their sniffed media type, under a name the store
// assigns. Kept behind a port, not on the local disk, so that several instances can share them once a
// database adapter exists. Adapters are safe to call from several threads at once.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/errc.hpp"
#include "core/model.hpp"

namespace storefront::storage {

struct stored_file {
    std::string name;           // "3f9c…e1.png": unique, URL-safe, assigned by the store
    std::string original_name;  // as the client sent it (for the response only)
    std::string media_type;     // image/png, image/jpeg, image/gif or image/webp
    std::string bytes;
    core::timestamp_ms created_at = 0;
};

class file_store {
  public:
    virtual ~file_store() = default;

    // Keeps the file under a new name ending in `extension` (".png") and returns it as stored.
    // errc::storage_full when the store's byte budget has no room for it.
    [[nodiscard]] virtual core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) = 0;

    // The file, shared (never copied) with concurrent readers; errc::not_found.
    [[nodiscard]] virtual core::result<std::shared_ptr<const stored_file>> find(std::string_view name
    ) const = 0;
};

}  // namespace storefront::storage
