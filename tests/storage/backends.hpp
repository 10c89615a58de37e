#pragma once
// The storage backends the template contract cases run on. Each gives a storage_config for a fresh, seeded
// store; the PostgreSQL backend, a fresh database per store on the TEST_PG_DSN server, joins the lists when
// TEST_PG_DSN is set (without it the PostgreSQL cases log a skip warning and check nothing).

#include <cstdlib>
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>

#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "storage/storage_config.hpp"

namespace storefront::test {

struct memory_backend {
    static storage::storage_config config() { return {}; }
};

// A directory for this test process's database files, removed when the binary exits.
inline const std::filesystem::path& sqlite_test_dir() {
    static const temp_dir dir;
    return dir.path();
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

struct pg_backend {
    // False (after logging why) when TEST_PG_DSN is unset.
    static bool available() {
        if (std::getenv("TEST_PG_DSN")) {
            return true;
        }
        BOOST_WARN_MESSAGE(
            false, "skipped on PostgreSQL: TEST_PG_DSN is unset (ctest runs storage_tests_pg)"
        );
        return false;
    }
    // A config whose backend is a new, empty database (CREATE DATABASE on the TEST_PG_DSN server).
    static storage::storage_config config() {
        storage::storage_config c;
        c.backend = create_test_database();
        return c;
    }
};

// Another "instance" on the PostgreSQL database `dsn`: the same database under a connection string of its
// own, so it gets its own pool and its own LISTEN connection, as a second process would.
inline storage::storage_config pg_instance(const std::string& dsn, const std::string& name) {
    storage::storage_config c;
    c.backend = dsn + " application_name='" + name + "'";
    return c;
}

// True when `Backend` cannot run here (it has available() and that says no); the case then returns.
template <class Backend>
bool skipped() {
    if constexpr (requires { Backend::available(); }) {
        return !Backend::available();
    } else {
        return false;
    }
}

}  // namespace storefront::test
