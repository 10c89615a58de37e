#pragma once
// One SQLite database file as the sqlite_* adapters share it: the schema of every aggregate, one write
// connection (writes share its commits through a group commit) and a small pool of read-only connections (WAL
// lets them read the last committed write while the writer works). Blocking: callers run it through the
// offload pool.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/change_journal.hpp"
#include "core/errc.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/group_commit.hpp"
#include "storage/storage_config.hpp"

namespace storefront::storage::detail {

class sqlite_database {
  public:
    // The database of `path`, shared by every store of that path in this process. Sharing gives one
    // in-process writer queue per file (threads wait on a mutex, not on SQLite's sleeping busy handler, whose
    // timeout is then left for other processes) and bounds the connections a server opens, whatever the
    // number of stores. Creates the schema; throws storage_unavailable when the file cannot be opened or
    // is locked past `config.busy_timeout`.
    [[nodiscard]] static std::shared_ptr<sqlite_database> open(
        const std::string& path, const storage_config& config
    );

    sqlite_database(const std::string& path, const storage_config& config);
    sqlite_database(const sqlite_database&) = delete;
    sqlite_database& operator=(const sqlite_database&) = delete;

    // A read connection, returned to the pool when the lease ends; waits while every one is in use.
    class read_lease {
      public:
        read_lease(const sqlite_database& owner, std::unique_ptr<sqlite_connection> db);
        ~read_lease();
        read_lease(const read_lease&) = delete;
        read_lease& operator=(const read_lease&) = delete;
        sqlite_connection& operator*() const { return *db_; }
        sqlite_connection* operator->() const { return db_.get(); }

      private:
        const sqlite_database& owner_;
        std::unique_ptr<sqlite_connection> db_;
    };
    [[nodiscard]] read_lease reader() const;

    // The write connection, alone for as long as the lease lives (no group-commit batch runs meanwhile); open
    // a transaction on it. For the seed, reset and sessions' multi-step writes; other writes go through
    // write().
    class write_lease {
      public:
        explicit write_lease(sqlite_database& owner) : lock_(owner.write_mutex_), db_(*owner.writer_) {}
        sqlite_connection& operator*() const { return db_; }
        sqlite_connection* operator->() const { return &db_; }

      private:
        std::unique_lock<std::mutex> lock_;
        sqlite_connection& db_;
    };
    // Throws std::logic_error on a thread whose write_batch holds this database (it would wait for itself).
    [[nodiscard]] write_lease writer() {
        if (commits_.held_by_this_thread()) {
            throw std::logic_error("sqlite: a write lease inside this thread's write batch");
        }
        return write_lease(*this);
    }

    // One write on the write connection: `change(db)` runs in its own savepoint inside the transaction of a
    // group commit (sqlite/group_commit.hpp), which concurrent writes share. An answer that is an error rolls
    // back that savepoint only; any other answer is kept, and returns once the transaction has committed (the
    // caller then records the rows it changed in a journal). An exception of `change` reaches this caller
    // only; a commit that fails throws to every caller of the batch. `change` may run on another caller's
    // thread, after earlier changes of the batch (which it sees, as it would see earlier commits).
    // On a thread with a storage::write_batch open, it returns before the commit: the batch commits it.
    template <class Change>
    auto write(Change&& change) -> decltype(change(std::declval<sqlite_connection&>())) {
        using answer_type = decltype(change(std::declval<sqlite_connection&>()));
        if constexpr (std::is_void_v<answer_type>) {
            commits_.run([&](sqlite_connection& db) {
                change(db);
                return true;
            });
        } else {
            std::optional<answer_type> answer;
            commits_.run([&](sqlite_connection& db) {
                answer.emplace(change(db));
                if constexpr (requires { answer->has_error(); }) {
                    return !answer->has_error();
                } else {
                    return true;
                }
            });
            return std::move(*answer);
        }
    }

    // Runs `work` (a journal record) once this thread's writes are committed: at once, or when this thread's
    // write_batch commits (never if it fails), so no cache sees a revision its readers cannot read yet.
    void after_commit(std::function<void()> work) { commits_.after_commit(std::move(work)); }
    // Records row `id` of `table` in `journal` (one of the two below) once committed (after_commit).
    void record_after_commit(change_journal& journal, core::row_table table, std::int64_t id) {
        after_commit([&journal, table, id] { journal.record(table, id); });
    }

    // Group-commit statistics for tests: changes waiting for a batch, and batches committed.
    [[nodiscard]] std::size_t queued_writes() const { return commits_.queued(); }
    [[nodiscard]] std::uint64_t commits() const { return commits_.commits(); }

    // One write that deletes row `id` of `table` (which has a seed column: the catalogue's and the users'
    // deletes). errc::not_found when there is none, `seed_error` for seed data
    // (read-only), errc::in_use while other rows still reference it (a category that has products).
    [[nodiscard]] core::result<void> delete_row(
        std::string_view table, std::int64_t id, core::errc seed_error
    );

    // Revisions for callers' caches, bumped after each committed write of the aggregate (in-process: a
    // read per request would cost a query). reset_to_seed bumps both.
    change_journal catalogue_changes;
    change_journal user_changes;

  private:
    std::unique_ptr<sqlite_connection> writer_;
    std::mutex write_mutex_;
    group_commit commits_{*writer_, write_mutex_};
    mutable std::mutex pool_mutex_;
    mutable std::condition_variable pool_ready_;
    mutable std::vector<std::unique_ptr<sqlite_connection>> idle_readers_;
};

// The rows of `table` in the last committed state (a read connection).
[[nodiscard]] std::size_t count_rows(const sqlite_database& db, std::string_view table);

// Inside a write: the id after the largest one in `table` (the public petstore's numbering).
[[nodiscard]] std::int64_t next_free_id(sqlite_connection& db, std::string_view table);

// Inside a write: errc::storage_full unless `adding` more bytes keep the `size` column of `table` within
// `max_bytes` (rows kept from earlier runs count).
[[nodiscard]] core::result<void> reserve_bytes(
    sqlite_connection& db, std::string_view table, std::size_t adding, std::size_t max_bytes
);

// Runs a DELETE whose one parameter ?1 is `key`; true when it removed a row.
template <class Key>
bool delete_where(sqlite_connection& db, std::string_view sql, const Key& key) {
    auto remove = db.prepare(sql);
    remove.bind(1, key);
    (void)remove.step();
    return db.changes() > 0;
}

// Sets the seed marker of `aggregate` inside the caller's IMMEDIATE transaction (common/seed_once.hpp); true
// when this call set it, false when the file holds that seed already.
[[nodiscard]] bool claim_seed_marker(sqlite_connection& db, std::string_view aggregate);

}  // namespace storefront::storage::detail
