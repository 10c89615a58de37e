#pragma once
// Group commit for the one write connection of a SQLite file: concurrent writers queue their change, the
// first waiting thread leads, runs every queued change (up to a bound) in one IMMEDIATE transaction, each in
// its own savepoint, and commits once, so a batch pays one fsync instead of one per write. On a thread with a
// storage::write_batch open, a write instead joins that batch's transaction and returns at once; the batch
// commits it (the writer thread of server/services/write_lane.hpp).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "common/batching_queue.hpp"
#include "sqlite/connection.hpp"
#include "storage/write_batch.hpp"

namespace storefront::storage::detail {

class group_commit final : public write_batch::member {
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
    ~group_commit() override;

    // Runs `c` in the next batch and returns once that batch has committed. Rethrows what `c` threw (to this
    // caller only); throws the batch's failure (storage_unavailable, sqlite_error) when it could not commit,
    // whatever `c` answered. With an empty queue it runs at once: there is no timer.
    // Inside this thread's write_batch (when no other database holds it) `c` runs at once in the batch's
    // transaction and run returns without a commit; a failure that lost the transaction fails the batch.
    void run(const change& c);

    // Runs `work` once this thread's writes here are committed: at once, or, while this thread's
    // write_batch holds an uncommitted transaction here, after that batch commits (never if it fails).
    void after_commit(std::function<void()> work);
    // Whether this thread's open write_batch holds a transaction here (a write lease would deadlock).
    [[nodiscard]] bool held_by_this_thread() const;

    // write_batch::member
    void commit() override;
    void roll_back() noexcept override;

    // Changes waiting for a batch (the running one excluded), and batches committed so far (for tests).
    [[nodiscard]] std::size_t queued() const { return queue_.queued(); }
    [[nodiscard]] std::uint64_t commits() const { return commits_.load(std::memory_order_acquire); }

    // At most this many changes share one transaction, so one batch cannot hold the write lock for long.
    static constexpr std::size_t max_batch = 128;

  private:
    struct pending : batch_waiter {
        explicit pending(const change& c) : run(&c) {}
        const change* run;
        bool kept = false;
    };

    void commit_batch(const std::vector<pending*>& batch);
    void run_in_savepoint(pending& p);
    bool join(write_batch& batch);
    void run_in_joined_batch(const change& c);

    sqlite_connection& db_;
    std::mutex& write_mutex_;
    std::function<void(sqlite_connection&)> before_commit_;
    batching_queue<pending> queue_{max_batch};
    std::atomic<std::uint64_t> commits_{0};

    // The write_batch this database joined (touched by that batch's thread only): its hold on the write
    // connection, its transaction, a failure that lost it, and the work waiting for its commit.
    std::unique_lock<std::mutex> batch_writer_;
    std::optional<sqlite_connection::transaction> batch_transaction_;
    std::exception_ptr batch_lost_;
    std::vector<std::function<void()>> batch_after_commit_;
};

}  // namespace storefront::storage::detail
