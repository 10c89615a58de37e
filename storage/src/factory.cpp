// The store factory: picks the adapter for storage_config::backend ("memory", "sqlite:PATH" or a PostgreSQL
// connection string) and fills it
// with the seed catalogue, the seed users, the configured or generated locations and the pet store seed.
// SQLite and PostgreSQL are compiled in when STOREFRONT_WITH_SQLITE / STOREFRONT_WITH_POSTGRES are defined.

#include "storage/factory.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "locations/csv.hpp"
#include "locations/generator.hpp"
#include "memory/stores.hpp"
#include "postgres/stores.hpp"
#include "seed/catalogue.hpp"
#include "seed/pets.hpp"
#include "seed/users.hpp"
#include "sqlite/stores.hpp"

#ifdef STOREFRONT_WITH_SQLITE
#include "sqlite/database.hpp"
#include "sqlite/reset.hpp"
#endif
#ifdef STOREFRONT_WITH_POSTGRES
#include "postgres/reset.hpp"
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

// The store of `config`'s backend: `sqlite(database)` for "sqlite:PATH", `postgres(target, pool size)` for a
// PostgreSQL connection string (the target: that DSN and config.schema) when this build has that backend,
// else `memory()` once the backend is known to be "memory". The durable makers are generic lambdas, so a
// backend left out of the build is never named.
template <class Memory, class Sqlite, class Postgres>
auto make_store(
    const storage_config& config,
    Memory memory,
    [[maybe_unused]] Sqlite sqlite,
    [[maybe_unused]] Postgres postgres
) -> decltype(memory()) {
#ifdef STOREFRONT_WITH_SQLITE
    if (const auto path = sqlite_path(config)) {
        return sqlite(detail::sqlite_database::open(*path, config));
    }
#endif
#ifdef STOREFRONT_WITH_POSTGRES
    if (is_postgres(config)) {
        return postgres(pg_target{config.backend, config.schema}, config.pool_size);
    }
#endif
    require_known_backend(config);
    return memory();
}

// The seed rows as `config` keeps them: flagged read-only, or (a sandbox's copy) as any other row.
template <class Row>
std::vector<Row> seed_as_configured(std::vector<Row> rows, bool read_only) {
    if (!read_only) {
        for (auto& row : rows) {
            if constexpr (requires { row.profile.seed; }) {
                row.profile.seed = false;
            } else {
                row.seed = false;
            }
        }
    }
    return rows;
}

}  // namespace

std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config) {
    const auto categories = [&] {
        return seed_as_configured(detail::seed_categories(), config.seed_read_only);
    };
    const auto products = [&] { return seed_as_configured(detail::seed_products(), config.seed_read_only); };
    return make_store(
        config,
        [&] { return make_memory_catalogue_store(categories(), products()); },
        [&](auto db) { return make_sqlite_catalogue_store(std::move(db), categories(), products()); },
        [&](const auto& target, auto pool) {
            return make_pg_catalogue_store(target, pool, categories(), products());
        }
    );
}

std::unique_ptr<user_store> make_user_store(const storage_config& config) {
    // Kept by the durable stores and called when they first reach an unseeded database: owns its flag.
    const std::function<std::vector<core::user_credentials>()> users = [read_only = config.seed_read_only] {
        return seed_as_configured(detail::seed_user_credentials(), read_only);
    };
    return make_store(
        config,
        [&] { return make_memory_user_store(users()); },
        [&](auto db) { return make_sqlite_user_store(std::move(db), users); },
        [&](const auto& target, auto pool) { return make_pg_user_store(target, pool, users); }
    );
}

std::unique_ptr<file_store> make_file_store(const storage_config& config, std::size_t max_bytes) {
    return make_store(
        config,
        [&] { return make_memory_file_store(max_bytes); },
        [&](auto db) { return make_sqlite_file_store(std::move(db), max_bytes); },
        [&](const auto& target, auto pool) { return make_pg_file_store(target, pool, max_bytes); }
    );
}

std::unique_ptr<session_store> make_session_store(const storage_config& config) {
    return make_store(
        config,
        [] { return make_memory_session_store(); },
        [](auto db) { return make_sqlite_session_store(std::move(db)); },
        [](const auto& target, auto pool) { return make_pg_session_store(target, pool); }
    );
}

// Locations are read-only and generated or read from CSV, so they stay in memory for every backend.
std::unique_ptr<location_store> make_location_store(const storage_config& config) {
    (void)sqlite_path(config);  // throws for "sqlite:" without a path
    require_known_backend(config);
    if (config.location_file) {
        return make_memory_location_store(detail::load_location_csv(*config.location_file));
    }
    return make_memory_location_store(
        detail::generate_locations(config.generated_locations, config.location_seed)
    );
}

std::unique_ptr<shop_store> make_shop_store(const storage_config& config, catalogue_store& catalogue) {
    return make_store(
        config,
        [&] {
            auto* stock = dynamic_cast<detail::memory_stock*>(&catalogue);
            if (stock == nullptr) {
                throw std::invalid_argument("make_shop_store: a memory shop needs the memory catalogue store"
                );
            }
            return make_memory_shop_store(*stock);
        },
        [](auto db) { return make_sqlite_shop_store(std::move(db)); },
        [](const auto& target, auto pool) { return make_pg_shop_store(target, pool); }
    );
}

std::unique_ptr<pet_store> make_pet_store(const storage_config& config) {
    return make_store(
        config,
        [] { return make_memory_pet_store(detail::seed_pets()); },
        [](auto db) { return make_sqlite_pet_store(std::move(db), detail::seed_pets()); },
        [](const auto& target, auto pool) { return make_pg_pet_store(target, pool, detail::seed_pets()); }
    );
}

std::unique_ptr<order_store> make_order_store(const storage_config& config) {
    return make_store(
        config,
        [] { return make_memory_order_store(detail::seed_orders()); },
        [](auto db) { return make_sqlite_order_store(std::move(db), detail::seed_orders()); },
        [](const auto& target, auto pool) { return make_pg_order_store(target, pool, detail::seed_orders()); }
    );
}

std::unique_ptr<pet_user_store> make_pet_user_store(const storage_config& config) {
    return make_store(
        config,
        [] { return make_memory_pet_user_store(detail::seed_pet_users()); },
        [](auto db) { return make_sqlite_pet_user_store(std::move(db), detail::seed_pet_users); },
        [](const auto& target, auto pool) {
            return make_pg_pet_user_store(target, pool, detail::seed_pet_users);
        }
    );
}

std::unique_ptr<pet_image_store> make_pet_image_store(const storage_config& config, std::size_t max_bytes) {
    return make_store(
        config,
        [&] { return make_memory_pet_image_store(max_bytes); },
        [&](auto db) { return make_sqlite_pet_image_store(std::move(db), max_bytes); },
        [&](const auto& target, auto pool) { return make_pg_pet_image_store(target, pool, max_bytes); }
    );
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
