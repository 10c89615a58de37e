#pragma once
// Which storage backend to use and what to load into it; filled once by the executable from flags/env.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace storefront::storage {

struct storage_config {
    // "memory", "sqlite:PATH" or a libpq connection string ("postgresql://…", "postgres://…").
    std::string backend = "memory";
    std::size_t pool_size = 4;  // read connections of SQLite, connections of PostgreSQL (--storage-pool)
    // How long a durable backend waits for a lock before the call throws storage_unavailable.
    std::chrono::milliseconds busy_timeout{5000};
    std::optional<std::filesystem::path> location_file;  // CSV: id,name,description,latitude,longitude
    std::size_t generated_locations = 100'000;           // used when no location file is given
    std::uint64_t location_seed = 0x5EED'2026;           // fixed: the default set is the same on every start
};

}  // namespace storefront::storage
