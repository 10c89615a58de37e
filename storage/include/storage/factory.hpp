#pragma once
// Builds the stores a storage_config asks for. Throws std::invalid_argument for an unknown backend and
// std::runtime_error (with file and line) for an unreadable or malformed location file.

#include <memory>

#include "storage/catalogue_store.hpp"
#include "storage/location_store.hpp"
#include "storage/storage_config.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

[[nodiscard]] std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config);
[[nodiscard]] std::unique_ptr<user_store> make_user_store(const storage_config& config);
[[nodiscard]] std::unique_ptr<location_store> make_location_store(const storage_config& config);

}  // namespace storefront::storage
