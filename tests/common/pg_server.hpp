#pragma once
// The PostgreSQL server of the tests, named by TEST_PG_DSN: tests/pg/with_pg_cluster.sh starts a throw-away
// one (ctest runs storage_tests_pg and server_tests_pg under it) and sets TEST_PG_CTL_CMD to stop and start
// it. Fresh databases on it, SQL behind a store's back, and the server stopped and started again.

#include <optional>
#include <string>

namespace storefront::test {

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

// Runs "$TEST_PG_CTL_CMD start|stop"; false when it is unset or fails.
bool pg_ctl(const char* action);

// Starts the server again if a test stops before doing so itself.
struct restart_guard {
    bool stopped = false;
    ~restart_guard();
};

}  // namespace storefront::test
