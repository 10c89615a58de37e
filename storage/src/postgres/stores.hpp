#pragma once
// The PostgreSQL adapters, one per port (each class lives in its own .cpp), each on the process's pool for
// `target` (at most `pool_size` connections) through a pg_aggregate: every write is one transaction that
// notifies the aggregate's channel. A store with seed data writes it once, when the database has never held
// that aggregate. Blocking: callers run them through the offload pool.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/pet_model.hpp"
#include "postgres/target.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/event_log.hpp"
#include "storage/file_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/sandbox_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

[[nodiscard]] std::unique_ptr<catalogue_store> make_pg_catalogue_store(
    const pg_target& target,
    std::size_t pool_size,
    std::vector<core::category> categories,
    std::vector<core::product> products
);
// `seed` is called only when the database has not been seeded yet (hashing is slow).
[[nodiscard]] std::unique_ptr<user_store> make_pg_user_store(
    const pg_target& target, std::size_t pool_size, std::function<std::vector<core::user_credentials>()> seed
);
[[nodiscard]] std::unique_ptr<session_store> make_pg_session_store(
    const pg_target& target, std::size_t pool_size
);
// Uploads within `max_bytes` in all, shared by every instance.
[[nodiscard]] std::unique_ptr<file_store> make_pg_file_store(
    const pg_target& target, std::size_t pool_size, std::size_t max_bytes
);

[[nodiscard]] std::unique_ptr<pet_store> make_pg_pet_store(
    const pg_target& target, std::size_t pool_size, std::vector<core::pet> seed
);
[[nodiscard]] std::unique_ptr<order_store> make_pg_order_store(
    const pg_target& target, std::size_t pool_size, std::vector<core::pet_order> seed
);
// `seed` is called only when the database has not been seeded yet (it hashes a password).
[[nodiscard]] std::unique_ptr<pet_user_store> make_pg_pet_user_store(
    const pg_target& target,
    std::size_t pool_size,
    std::function<std::vector<core::pet_user_credentials>()> seed
);
// Images within `max_bytes` in all, shared by every instance.
[[nodiscard]] std::unique_ptr<pet_image_store> make_pg_pet_image_store(
    const pg_target& target, std::size_t pool_size, std::size_t max_bytes
);

// The shop (carts, orders, payments, idempotency keys) of the database; stock is the products table's column.
[[nodiscard]] std::unique_ptr<shop_store> make_pg_shop_store(const pg_target& target, std::size_t pool_size);

// The registry of sandboxes of the database `base.backend`: a table in the shared view, one schema per
// sandbox; config_for answers `base` with that schema.
[[nodiscard]] std::unique_ptr<sandbox_store> make_pg_sandbox_store(storage_config base);
// The change feed's history of every data set of the database `config.backend` (tables in the shared
// view's schema).
[[nodiscard]] std::unique_ptr<event_log> make_pg_event_log(const storage_config& config);

}  // namespace storefront::storage
