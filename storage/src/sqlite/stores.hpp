#pragma once
// The SQLite adapters, one per port (each class lives in its own .cpp), all on the shared database of one
// file (sqlite/database.hpp). A store with seed data writes it the first time the file gets that aggregate,
// never again. Blocking: callers run them through the offload pool, never on an I/O thread.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/pet_model.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/sandbox_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

namespace detail {
class sqlite_database;
}

[[nodiscard]] std::unique_ptr<catalogue_store> make_sqlite_catalogue_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
);
// `seed` is called only when the file has never held the users (hashing the seed passwords is slow).
[[nodiscard]] std::unique_ptr<user_store> make_sqlite_user_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::function<std::vector<core::user_credentials>()>& seed
);
[[nodiscard]] std::unique_ptr<session_store> make_sqlite_session_store(
    std::shared_ptr<detail::sqlite_database> db
);
// Uploads within `max_bytes`, counted over the whole file (uploads kept from earlier runs count).
[[nodiscard]] std::unique_ptr<file_store> make_sqlite_file_store(
    std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes
);

[[nodiscard]] std::unique_ptr<pet_store> make_sqlite_pet_store(
    std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet>& seed
);
[[nodiscard]] std::unique_ptr<order_store> make_sqlite_order_store(
    std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet_order>& seed
);
// `seed` is called only when the file has never held the pet users (it hashes a password).
[[nodiscard]] std::unique_ptr<pet_user_store> make_sqlite_pet_user_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::function<std::vector<core::pet_user_credentials>()>& seed
);
// Images within `max_bytes`, counted over the whole file.
[[nodiscard]] std::unique_ptr<pet_image_store> make_sqlite_pet_image_store(
    std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes
);

// The shop (carts, orders, payments, idempotency keys) of the file; stock is the products table's column.
[[nodiscard]] std::unique_ptr<shop_store> make_sqlite_shop_store(std::shared_ptr<detail::sqlite_database> db);

// The registry of sandboxes of the database file `path`: the directory `<path>.sandboxes/`, one file per
// sandbox; config_for answers `base` with that file as its backend.
[[nodiscard]] std::unique_ptr<sandbox_store> make_sqlite_sandbox_store(std::string path, storage_config base);

}  // namespace storefront::storage
