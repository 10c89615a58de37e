#pragma once
// Which storage backend to use and what to load into it; filled once by the executable from flags/env.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace storefront::storage {

struct storage_config {
    // "memory", "sqlite:PATH" or a libpq connection string ("postgresql://…", "postgres://…").
    std::string backend = "memory";
    // PostgreSQL: the schema every table lives in (empty: the connection's own search_path, the shared
    // view); each sandbox with data gets one (sandbox_store::config_for).
    std::string schema;
    // Seed rows refuse updates and deletes (the shared view); a sandbox's copy of the seed is its own to
    // change.
    bool seed_read_only = true;
    std::size_t pool_size = 4;  // read connections of SQLite, connections of PostgreSQL (--storage-pool)
    // How long a durable backend waits for a lock before the call throws storage_unavailable.
    std::chrono::milliseconds busy_timeout{5000};
    std::optional<std::filesystem::path> location_file;  // CSV: id,name,description,latitude,longitude
    std::size_t generated_locations = 100'000;           // used when no location file is given
    std::uint64_t location_seed = 0x5EED'2026;           // fixed: the default set is the same on every start
};

enum class backend_kind { memory, sqlite, postgresql };

// The kind of `backend` ("memory", "sqlite:PATH" with a non-empty path, "postgresql://…", "postgres://…" or a
// libpq "key=value …" string); nullopt when it is none of these.
[[nodiscard]] std::optional<backend_kind> kind_of(std::string_view backend);

// `backend` fit for a log line: a PostgreSQL connection string loses its user, password and parameters.
[[nodiscard]] std::string redacted(std::string_view backend);

}  // namespace storefront::storage
