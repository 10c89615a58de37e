#pragma once
// The PostgreSQL backend of the storage contract tests: a fresh database per store on the server named by
// TEST_PG_DSN (tests/pg/with_pg_cluster.sh starts a throw-away one; ctest runs storage_tests_pg under it).
// Without TEST_PG_DSN the PostgreSQL cases log a skip warning and check nothing.

#include <optional>
#include <string>

#include "storage/storage_config.hpp"

namespace storefront::test {

struct pg_backend {
    // False (after logging why) when TEST_PG_DSN is unset.
    static bool available();
    // A config whose backend is a new, empty database (CREATE DATABASE on the TEST_PG_DSN server).
    static storage::storage_config config();
};

// A new empty database on the TEST_PG_DSN server; returns its key=value connection string.
[[nodiscard]] std::string create_test_database();
// Runs SQL on the database of `dsn` (tests that look at or change rows behind a store's back).
void run_sql(const std::string& dsn, const std::string& sql);
// The first column of the first row of `sql` as text (nullopt when no row).
[[nodiscard]] std::optional<std::string> query_value(const std::string& dsn, const std::string& sql);

// A connection that holds an open transaction (after running `sql` in it) until destroyed: locks that
// make a store's statements wait.
class open_transaction {
  public:
    open_transaction(const std::string& dsn, const std::string& sql);
    ~open_transaction();
    open_transaction(const open_transaction&) = delete;
    open_transaction& operator=(const open_transaction&) = delete;

  private:
    void* conn_;  // PGconn*, kept out of this header
};

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
