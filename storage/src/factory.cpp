// The store factory: picks the adapter for storage_config::backend ("memory", "sqlite:PATH" or a PostgreSQL
// connection string) and fills it
// with the seed catalogue, the seed users, the configured or generated locations and the pet store seed.
// SQLite and PostgreSQL are compiled in when STOREFRONT_WITH_SQLITE / STOREFRONT_WITH_POSTGRES are defined.

#include "storage/factory.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "locations/csv.hpp"
#include "locations/generator.hpp"
#include "memory/catalogue_store.hpp"
#include "memory/file_store.hpp"
#include "memory/location_store.hpp"
#include "memory/order_store.hpp"
#include "memory/pet_image_store.hpp"
#include "memory/pet_store.hpp"
#include "memory/pet_user_store.hpp"
#include "memory/session_store.hpp"
#include "memory/user_store.hpp"
#include "seed/catalogue.hpp"
#include "seed/pets.hpp"
#include "seed/users.hpp"

#ifdef STOREFRONT_WITH_SQLITE
#include "sqlite/catalogue_store.hpp"
#include "sqlite/file_store.hpp"
#include "sqlite/order_store.hpp"
#include "sqlite/pet_image_store.hpp"
#include "sqlite/pet_store.hpp"
#include "sqlite/pet_user_store.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/session_store.hpp"
#include "sqlite/user_store.hpp"
#endif
#ifdef STOREFRONT_WITH_POSTGRES
#include "postgres/catalogue_store.hpp"
#include "postgres/file_store.hpp"
#include "postgres/order_store.hpp"
#include "postgres/pet_image_store.hpp"
#include "postgres/pet_store.hpp"
#include "postgres/pet_user_store.hpp"
#include "postgres/reset.hpp"
#include "postgres/session_store.hpp"
#include "postgres/user_store.hpp"
#endif

namespace storefront::storage {
namespace {

// The PATH of "sqlite:PATH"; nullopt for any other backend.
std::optional<std::string> sqlite_path(const storage_config& config) {
    constexpr std::string_view prefix = "sqlite:";
    if (config.backend.rfind(prefix, 0) != 0) {
        return std::nullopt;
    }
    std::string path = config.backend.substr(prefix.size());
    if (path.empty()) {
        throw std::invalid_argument("sqlite backend without a path: " + config.backend);
    }
    return path;
}

#ifdef STOREFRONT_WITH_SQLITE
std::shared_ptr<detail::sqlite_database> sqlite_database_for(
    const std::string& path, const storage_config& config
) {
    return detail::sqlite_database::open(path, config);
}
#endif

[[maybe_unused]] bool is_postgres(const storage_config& config) {
    return kind_of(config.backend) == backend_kind::postgresql;
}

#ifdef STOREFRONT_WITH_SQLITE
constexpr bool with_sqlite = true;
#else
constexpr bool with_sqlite = false;
#endif
#ifdef STOREFRONT_WITH_POSTGRES
constexpr bool with_postgres = true;
#else
constexpr bool with_postgres = false;
#endif

// Throws std::invalid_argument for an unknown backend and for one this build left out (CMake options).
void require_known_backend(const storage_config& config) {
    const auto kind = kind_of(config.backend);
    if (kind == backend_kind::sqlite && !with_sqlite) {
        throw std::invalid_argument("storefront was built without SQLite support");
    }
    if (kind == backend_kind::postgresql && !with_postgres) {
        throw std::invalid_argument("storefront was built without PostgreSQL support");
    }
    if (kind != backend_kind::memory && kind != backend_kind::sqlite && kind != backend_kind::postgresql) {
        throw std::invalid_argument("unknown storage backend: " + config.backend);
    }
}

}  // namespace

std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_catalogue_store>(
            sqlite_database_for(*path, config), detail::seed_categories(), detail::seed_products()
        );
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_catalogue_store>(
            config.backend, config.pool_size, detail::seed_categories(), detail::seed_products()
        );
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_catalogue_store>(detail::seed_categories(), detail::seed_products());
}

std::unique_ptr<user_store> make_user_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_user_store>(
            sqlite_database_for(*path, config), detail::seed_user_credentials
        );
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_user_store>(
            config.backend, config.pool_size, detail::seed_user_credentials
        );
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_user_store>(detail::seed_user_credentials());
}

std::unique_ptr<file_store> make_file_store(const storage_config& config, std::size_t max_bytes) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_file_store>(sqlite_database_for(*path, config), max_bytes);
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_file_store>(config.backend, config.pool_size, max_bytes);
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_file_store>(max_bytes);
}

std::unique_ptr<session_store> make_session_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_session_store>(sqlite_database_for(*path, config));
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_session_store>(config.backend, config.pool_size);
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_session_store>();
}

// Locations are read-only and generated or read from CSV, so they stay in memory for every backend.
std::unique_ptr<location_store> make_location_store(const storage_config& config) {
    (void)sqlite_path(config);  // throws for "sqlite:" without a path
    require_known_backend(config);
    if (config.location_file) {
        return std::make_unique<memory_location_store>(detail::load_location_csv(*config.location_file));
    }
    return std::make_unique<memory_location_store>(
        detail::generate_locations(config.generated_locations, config.location_seed)
    );
}

std::unique_ptr<pet_store> make_pet_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_pet_store>(sqlite_database_for(*path, config), detail::seed_pets());
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_pet_store>(config.backend, config.pool_size, detail::seed_pets());
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_pet_store>(detail::seed_pets());
}

std::unique_ptr<order_store> make_order_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_order_store>(
            sqlite_database_for(*path, config), detail::seed_orders()
        );
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_order_store>(config.backend, config.pool_size, detail::seed_orders());
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_order_store>(detail::seed_orders());
}

std::unique_ptr<pet_user_store> make_pet_user_store(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_pet_user_store>(
            sqlite_database_for(*path, config), detail::seed_pet_users
        );
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_pet_user_store>(config.backend, config.pool_size, detail::seed_pet_users);
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_pet_user_store>(detail::seed_pet_users());
}

std::unique_ptr<pet_image_store> make_pet_image_store(const storage_config& config, std::size_t max_bytes) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return std::make_unique<sqlite_pet_image_store>(sqlite_database_for(*path, config), max_bytes);
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return std::make_unique<pg_pet_image_store>(config.backend, config.pool_size, max_bytes);
    }
#endif
    require_known_backend(config);
    return std::make_unique<memory_pet_image_store>(max_bytes);
}

void reset_to_seed(const storage_config& config) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        detail::sqlite_reset_to_seed(*path, config);
        return;
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        detail::pg_reset_to_seed(config.backend);
        return;
    }
#endif
    require_known_backend(config);  // memory: every start is already the seed
}

}  // namespace storefront::storage
