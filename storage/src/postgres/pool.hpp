#pragma once
// The connections of one process to one PostgreSQL database and schema, shared by every pg_* store built for
// the same target (shared_pg_pool): at most `size` connections, borrowed for one port call each with a
// bounded wait, a broken connection dropped on return, and new connections opened on demand with back-off
// while the server is unreachable (a borrow then fails at once with storage_unavailable). The pool also
// owns the target's one LISTEN connection (pg_listener) and runs the schema migration once. Every
// connection of a target with a schema runs with that schema as its search_path.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "postgres/connection.hpp"
#include "postgres/listener.hpp"
#include "postgres/target.hpp"

namespace storefront::storage::detail {

class pg_pool {
  public:
    pg_pool(pg_target target, std::size_t size, pg_limits limits = {});
    pg_pool(const pg_pool&) = delete;
    pg_pool& operator=(const pg_pool&) = delete;

    class lease {
      public:
        lease(pg_pool& pool, std::unique_ptr<pg_connection> conn) : pool_(&pool), conn_(std::move(conn)) {}
        lease(lease&& other) noexcept = default;
        lease& operator=(lease&&) = delete;
        ~lease();
        pg_connection& operator*() const { return *conn_; }
        pg_connection* operator->() const { return conn_.get(); }

      private:
        pg_pool* pool_;
        std::unique_ptr<pg_connection> conn_;
    };

    // A healthy connection; throws storage_unavailable when none is free within the borrow timeout or the
    // server cannot be reached.
    [[nodiscard]] lease borrow();

    // The target's schema and the tables of every aggregate in it exist and are current (idempotent; once
    // per pool when it succeeds).
    void ensure_schema(pg_connection& conn);

    [[nodiscard]] pg_listener& listener();

  private:
    void give_back(std::unique_ptr<pg_connection> conn);

    const pg_target target_;
    const std::size_t size_;
    const pg_limits limits_;
    const std::chrono::milliseconds borrow_timeout_{5000};

    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<pg_connection>> idle_;
    std::size_t open_ = 0;  // idle and borrowed connections, plus those being opened
    std::chrono::milliseconds backoff_{0};
    std::chrono::steady_clock::time_point next_attempt_{};
    bool schema_ready_ = false;
    std::unique_ptr<pg_listener> listener_;
};

// The pool for `target` shared by the stores of this process (created on first use, gone with its last
// store).
[[nodiscard]] std::shared_ptr<pg_pool> shared_pg_pool(const pg_target& target, std::size_t size);

}  // namespace storefront::storage::detail
