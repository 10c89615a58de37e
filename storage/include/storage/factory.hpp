#pragma once
// Builds the stores a storage_config asks for. Throws std::invalid_argument for an unknown backend,
// std::runtime_error (with file and line) for an unreadable or malformed location file and
// storage_unavailable when a durable backend cannot be opened. A durable backend gets each aggregate's seed
// once, on the first start of an empty store, never again at a later start.

#include <memory>

#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/location_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/storage_config.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

[[nodiscard]] std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config);
[[nodiscard]] std::unique_ptr<user_store> make_user_store(const storage_config& config);
// Uploaded files, at most `max_bytes` in total.
[[nodiscard]] std::unique_ptr<file_store> make_file_store(
    const storage_config& config, std::size_t max_bytes
);
[[nodiscard]] std::unique_ptr<location_store> make_location_store(const storage_config& config);
// Refresh-token families (logins), shared by every instance on the same database.
[[nodiscard]] std::unique_ptr<session_store> make_session_store(const storage_config& config);

// The pet store surface, with the public petstore's seed pets, orders and users (user1..user10).
[[nodiscard]] std::unique_ptr<pet_store> make_pet_store(const storage_config& config);
[[nodiscard]] std::unique_ptr<order_store> make_order_store(const storage_config& config);
[[nodiscard]] std::unique_ptr<pet_user_store> make_pet_user_store(const storage_config& config);
// Uploaded images, at most `max_bytes` in total.
[[nodiscard]] std::unique_ptr<pet_image_store> make_pet_image_store(
    const storage_config& config, std::size_t max_bytes
);

// The shop of the data set (issue 42): carts, orders, payments and idempotency keys. `catalogue` is the same
// data set's catalogue store (made by make_catalogue_store from the same config): on "memory" the stock
// lives there, so it must outlive the shop store; the durable backends keep stock in their products table.
[[nodiscard]] std::unique_ptr<shop_store> make_shop_store(
    const storage_config& config, catalogue_store& catalogue
);

// --reset-data: every aggregate's rows are replaced by the seed in one transaction (SQLite, PostgreSQL;
// other PostgreSQL instances see it as a write). A no-op for "memory", which starts from the seed anyway.
// Throws like the make_* functions (storage_unavailable when the database cannot be reached).
void reset_to_seed(const storage_config& config);

}  // namespace storefront::storage
