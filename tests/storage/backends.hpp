#pragma once
// The storage backends the template contract cases run on. Each gives a storage_config for a fresh, seeded
// store; the PostgreSQL backend joins the lists when TEST_PG_DSN is set.

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "storage/storage_config.hpp"

namespace storefront::test {

struct memory_backend {
    static storage::storage_config config() { return {}; }
};

// A directory for this test process's database files, removed when the binary exits.
inline const std::filesystem::path& sqlite_test_dir() {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("storefront-sqlite-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(
                std::filesystem::temp_directory_path() / ("storefront-sqlite-" + std::to_string(::getpid())),
                ignored
            );
        });
        return d;
    }();
    return dir;
}

// A new database file per call, so every store starts from its seed.
inline std::string fresh_sqlite_path() {
    static int counter = 0;
    return (sqlite_test_dir() / ("store-" + std::to_string(++counter) + ".db")).string();
}

struct sqlite_backend {
    static storage::storage_config config() {
        storage::storage_config c;
        c.backend = "sqlite:" + fresh_sqlite_path();
        return c;
    }
};

}  // namespace storefront::test
