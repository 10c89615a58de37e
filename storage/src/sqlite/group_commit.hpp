#pragma once
// Group commit for the one write connection of a SQLite file: concurrent writers queue their change, the
// first waiting thread leads, runs every queued change (up to a bound) in one IMMEDIATE transaction, each in
// its own savepoint, and commits once, so a batch pays one fsync instead of one per write.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "sqlite/connection.hpp"

namespace storefront::storage::detail {

class group_commit {
  public:
    // One write: runs on the write connection inside its own savepoint and answers whether to keep it
    // (false rolls back that savepoint only: the change answered an error).
    using change = std::function<bool(sqlite_connection&)>;

    // Batches on `db`, taking `write_mutex` around each batch so that write_lease holders (seed, reset)
    // never interleave with one.
    group_commit(sqlite_connection& db, std::mutex& write_mutex) : db_(db), write_mutex_(write_mutex) {}
    // Work every batch does once, after its changes and before its commit (catching derived indexes up);
    // set before the first run(). Its failure fails the batch.
    void before_commit(std::function<void(sqlite_connection&)> work) { before_commit_ = std::move(work); }
    group_commit(const group_commit&) = delete;
    group_commit& operator=(const group_commit&) = delete;

    // Runs `c` in the next batch and returns once that batch has committed. Rethrows what `c` threw (to this
    // caller only); throws the batch's failure (storage_unavailable, sqlite_error) when it could not commit,
    // whatever `c` answered. With an empty queue it runs at once: there is no timer.
    void run(const change& c);

    // Changes waiting for a batch (the running one excluded), and batches committed so far (for tests).
    [[nodiscard]] std::size_t queued() const;
    [[nodiscard]] std::uint64_t commits() const { return commits_.load(std::memory_order_acquire); }

    // At most this many changes share one transaction, so one batch cannot hold the write lock for long.
    static constexpr std::size_t max_batch = 128;

  private:
    struct pending {
        const change* run;
        bool kept = false;
        bool done = false;
        std::exception_ptr failure{};
        std::condition_variable wake{};  // done, or its turn to lead: one wake-up each, no thundering herd
    };

    void lead(std::unique_lock<std::mutex>& lock);
    void commit_batch(const std::vector<pending*>& batch);
    void run_in_savepoint(pending& p);

    sqlite_connection& db_;
    std::mutex& write_mutex_;
    std::function<void(sqlite_connection&)> before_commit_;
    mutable std::mutex mutex_;  // guards queue_, leading_ and every pending's `done`
    std::deque<pending*> queue_;
    bool leading_ = false;
    std::atomic<std::uint64_t> commits_{0};
};

}  // namespace storefront::storage::detail
