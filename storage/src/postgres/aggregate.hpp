#pragma once
// What every pg_* store shares: the process's pool for its target (DSN and schema), the schema and the
// aggregate's seed made ready before the first statement (retried on a later call while the database is
// unreachable), the aggregate's NOTIFY channel, and the in-process revision that own commits and the listener
// bump.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/errc.hpp"
#include "postgres/pool.hpp"

namespace storefront::storage::detail {

// Locks row `id` of `table` (which has a seed column) until the transaction ends, before a write changes or
// deletes it: errc::not_found when there is none, `seed_error` for seed data (read-only).
[[nodiscard]] core::result<void> lock_writable_row(
    pg_connection& db, std::string_view table, std::int64_t id, core::errc seed_error
);

// Runs a write whose constraint violation is an expected answer: errc::conflict for a UNIQUE one (a taken
// slug, e-mail or username), errc::invalid_reference for a FOREIGN KEY one (a category that is not there).
// The transaction is then aborted: the caller returns the error and lets it roll back.
[[nodiscard]] core::result<void> exec_write(
    pg_connection& db, std::string_view sql, const pg_params& params, pg_rows* rows = nullptr
);

// Inside a write's transaction, under pg_aggregate::lock(): the id after the largest one in `table` (the
// public petstore's numbering, as in the other backends).
[[nodiscard]] std::int64_t next_free_id(pg_connection& db, std::string_view table);

class pg_aggregate {
  public:
    using seed_writer = std::function<void(pg_connection&)>;

    // `name` is the aggregate ("catalogue"); its channel is pg_channel(target.schema, name). `seed` (may be
    // empty) writes the seed once. With `listen`, revision() also moves when another instance writes.
    pg_aggregate(
        const pg_target& target, std::size_t pool_size, std::string name, seed_writer seed, bool listen
    );
    ~pg_aggregate();
    pg_aggregate(const pg_aggregate&) = delete;
    pg_aggregate& operator=(const pg_aggregate&) = delete;

    // A connection to a database whose schema and seed are in place; throws storage_unavailable.
    [[nodiscard]] pg_pool::lease connection();

    // Inside a write's transaction: tells the other instances (delivered at commit).
    void notify(pg_connection& conn) const;
    // Inside a write's transaction: serialises this aggregate's writers across instances until commit
    // (for "largest id + 1" and byte budgets).
    void lock(pg_connection& conn) const;
    // Inside a write's transaction: lock(), then errc::storage_full unless `adding` more bytes keep the
    // `bytes` column of `table` within `max_bytes` (one budget for every instance).
    [[nodiscard]] core::result<void> reserve_bytes(
        pg_connection& conn, std::string_view table, std::size_t adding, std::size_t max_bytes
    ) const;
    // After a write committed.
    void committed() { revision_.fetch_add(1, std::memory_order_acq_rel); }
    // The end of every write that changed something: NOTIFY inside the transaction (delivered at commit),
    // commit, then move this instance's revision.
    void commit_write(pg_connection& conn, pg_transaction& tx) {
        notify(conn);
        tx.commit();
        committed();
    }
    [[nodiscard]] std::uint64_t revision() const { return revision_.load(std::memory_order_acquire); }

    // One write, one transaction: `change(conn)` runs inside it and its answer decides the end. An answer
    // that is a result with a value, `true`, or a plain value (an add) ends with commit_write; an error or
    // `false` (nothing changed) rolls back, so nobody is told.
    template <class Change>
    auto write(Change&& change) -> decltype(change(std::declval<pg_connection&>())) {
        auto conn = connection();
        pg_transaction tx(*conn);
        auto answer = change(*conn);
        if constexpr (std::is_constructible_v<bool, decltype(answer)>) {
            if (!static_cast<bool>(answer)) {
                return answer;
            }
        }
        commit_write(*conn, tx);
        return answer;
    }

    // A write that changes or deletes row `id` of `table`: the row is locked first (lock_writable_row:
    // errc::not_found, or `seed_error` for seed data), then `change(conn)` runs as in write().
    template <class Change>
    auto write_row(std::string_view table, std::int64_t id, core::errc seed_error, Change&& change)
        -> decltype(change(std::declval<pg_connection&>())) {
        return write([&](pg_connection& conn) -> decltype(change(conn)) {
            if (const auto writable = lock_writable_row(conn, table, id, seed_error); !writable) {
                return writable.error();
            }
            return change(conn);
        });
    }

    // One write that deletes row `id` of `table` (which has a seed column: the catalogue's and the users'
    // deletes), locked first as in write_row(): errc::not_found, `seed_error` for seed data (read-only),
    // errc::in_use while other rows still reference it (a category that has products).
    [[nodiscard]] core::result<void> delete_row(
        std::string_view table, std::int64_t id, core::errc seed_error
    );

    // The rows of `table` (one query on a borrowed connection).
    [[nodiscard]] std::size_t count_rows(std::string_view table);

    [[nodiscard]] pg_pool& pool() { return *pool_; }

  private:
    std::shared_ptr<pg_pool> pool_;
    std::string name_;
    std::string channel_;
    seed_writer seed_;
    std::mutex ready_mutex_;
    std::atomic<bool> ready_{false};
    std::atomic<std::uint64_t> revision_{1};
    std::uint64_t subscription_ = 0;
};

}  // namespace storefront::storage::detail
