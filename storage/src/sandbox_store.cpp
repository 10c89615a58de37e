// make_sandbox_store: picks the registry of sandboxes for the shared view's backend, as the factory picks
// its stores. SQLite and PostgreSQL are compiled in when STOREFRONT_WITH_SQLITE / STOREFRONT_WITH_POSTGRES
// are defined (on this file and the factory alone).

#include "storage/sandbox_store.hpp"

#include <stdexcept>
#include <string>

#include "memory/stores.hpp"
#include "postgres/stores.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

std::unique_ptr<sandbox_store> make_sandbox_store(const storage_config& config) {
    const auto kind = kind_of(config.backend);
    if (kind == backend_kind::memory) {
        return make_memory_sandbox_store(config);
    }
    if (kind == backend_kind::sqlite) {
#ifdef STOREFRONT_WITH_SQLITE
        constexpr std::string_view prefix = "sqlite:";
        return make_sqlite_sandbox_store(config.backend.substr(prefix.size()), config);
#else
        throw std::invalid_argument("storefront was built without SQLite support");
#endif
    }
    if (kind == backend_kind::postgresql) {
#ifdef STOREFRONT_WITH_POSTGRES
        return make_pg_sandbox_store(config);
#else
        throw std::invalid_argument("storefront was built without PostgreSQL support");
#endif
    }
    throw std::invalid_argument("unknown storage backend: " + config.backend);
}

}  // namespace storefront::storage
