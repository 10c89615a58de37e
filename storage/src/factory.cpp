// The store factory: picks the adapter for storage_config::backend ("memory"; "sqlite:PATH" for the
// catalogue so far; a PostgreSQL connection string) and fills it
// with the seed catalogue, the seed users, the configured or generated locations and the pet store seed.

#include "storage/factory.hpp"

#include <stdexcept>
#include <string>

#include "location_csv.hpp"
#include "location_generator.hpp"
#include "memory_catalogue_store.hpp"
#include "memory_file_store.hpp"
#include "memory_location_store.hpp"
#include "memory_order_store.hpp"
#include "memory_pet_image_store.hpp"
#include "memory_pet_store.hpp"
#include "memory_pet_user_store.hpp"
#include "memory_user_store.hpp"
#include "pg_catalogue_store.hpp"
#include "pg_file_store.hpp"
#include "pg_pet_stores.hpp"
#include "pg_reset.hpp"
#include "pg_user_store.hpp"
#include "seed_catalogue.hpp"
#include "seed_pets.hpp"
#include "seed_users.hpp"
#include "sqlite_catalogue_store.hpp"

namespace storefront::storage {
namespace {

// A libpq URL ("postgresql://…", "postgres://…") or key=value string ("host=… dbname=…").
bool is_postgres(const std::string& backend) {
    if (backend.starts_with("postgresql://") || backend.starts_with("postgres://")) {
        return true;
    }
    const auto key_end = backend.find_first_not_of("abcdefghijklmnopqrstuvwxyz_");
    return key_end != 0 && key_end != std::string::npos &&
           backend.find_first_not_of(' ', key_end) != std::string::npos &&
           backend[backend.find_first_not_of(' ', key_end)] == '=';
}

void require_known_backend(const storage_config& config) {
    if (config.backend != "memory") {
        throw std::invalid_argument("unknown storage backend: " + config.backend);
    }
}

}  // namespace

std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config) {
    constexpr std::string_view sqlite_prefix = "sqlite:";
    if (config.backend.rfind(sqlite_prefix, 0) == 0) {
        return std::make_unique<sqlite_catalogue_store>(
            config.backend.substr(sqlite_prefix.size()), detail::seed_categories(), detail::seed_products()
        );
    }
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_catalogue_store>(
            config.backend, config.pool_size, detail::seed_categories(), detail::seed_products()
        );
    }
    require_known_backend(config);
    return std::make_unique<memory_catalogue_store>(detail::seed_categories(), detail::seed_products());
}

std::unique_ptr<user_store> make_user_store(const storage_config& config) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_user_store>(
            config.backend, config.pool_size, detail::seed_user_credentials
        );
    }
    require_known_backend(config);
    return std::make_unique<memory_user_store>(detail::seed_user_credentials());
}

std::unique_ptr<file_store> make_file_store(const storage_config& config, std::size_t max_bytes) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_file_store>(config.backend, config.pool_size, max_bytes);
    }
    require_known_backend(config);
    return std::make_unique<memory_file_store>(max_bytes);
}

std::unique_ptr<location_store> make_location_store(const storage_config& config) {
    if (!is_postgres(config.backend)) {  // locations are generated or loaded, never written: kept in memory
        require_known_backend(config);
    }
    if (config.location_file) {
        return std::make_unique<memory_location_store>(detail::load_location_csv(*config.location_file));
    }
    return std::make_unique<memory_location_store>(
        detail::generate_locations(config.generated_locations, config.location_seed)
    );
}

std::unique_ptr<pet_store> make_pet_store(const storage_config& config) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_pet_store>(config.backend, config.pool_size, detail::seed_pets());
    }
    require_known_backend(config);
    return std::make_unique<memory_pet_store>(detail::seed_pets());
}

std::unique_ptr<order_store> make_order_store(const storage_config& config) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_order_store>(config.backend, config.pool_size, detail::seed_orders());
    }
    require_known_backend(config);
    return std::make_unique<memory_order_store>(detail::seed_orders());
}

std::unique_ptr<pet_user_store> make_pet_user_store(const storage_config& config) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_pet_user_store>(config.backend, config.pool_size, detail::seed_pet_users);
    }
    require_known_backend(config);
    return std::make_unique<memory_pet_user_store>(detail::seed_pet_users());
}

std::unique_ptr<pet_image_store> make_pet_image_store(const storage_config& config, std::size_t max_bytes) {
    if (is_postgres(config.backend)) {
        return std::make_unique<pg_pet_image_store>(config.backend, config.pool_size, max_bytes);
    }
    require_known_backend(config);
    return std::make_unique<memory_pet_image_store>(max_bytes);
}

void reset_to_seed(const storage_config& config) {
    if (is_postgres(config.backend)) {
        detail::pg_reset_to_seed(config.backend);
        return;
    }
    require_known_backend(config);  // memory: every start already is the seed
}

}  // namespace storefront::storage
