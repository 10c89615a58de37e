#pragma once
// Group commit's queue, for any backend: concurrent writers queue their change, the first waiting thread
// leads and has the backend run up to max_batch queued changes in one transaction (one commit: one flush to
// disk and, on PostgreSQL, one NOTIFY), then wakes each writer of the batch. There is no timer: a writer
// alone runs at once, so a single writer waits no longer than without the queue.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

namespace storefront::storage::detail {

template <class Connection>
class commit_queue {
  public:
    // One write: runs on the batch's connection inside its own savepoint and answers whether to keep it
    // (false rolls back that savepoint only: the change answered an error).
    using change = std::function<bool(Connection&)>;

    commit_queue() = default;
    commit_queue(const commit_queue&) = delete;
    commit_queue& operator=(const commit_queue&) = delete;

    // Runs `c` in the next batch and returns once that batch has committed. Rethrows what `c` threw (to this
    // caller only); throws the batch's failure when it could not commit, whatever `c` answered.
    void run(const change& c) {
        pending mine{&c};
        std::unique_lock lock(mutex_);
        queue_.push_back(&mine);
        while (!mine.done) {
            if (leading_) {
                mine.wake.wait(lock);
            } else {
                lead(lock);  // may not take `mine` when more than max_batch wait before it: then lead again
            }
        }
        if (mine.failure) {
            std::rethrow_exception(mine.failure);
        }
    }

    // Changes waiting for a batch (the running one excluded), and batches committed so far (for tests).
    [[nodiscard]] std::size_t queued() const {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }
    [[nodiscard]] std::uint64_t commits() const { return commits_.load(std::memory_order_acquire); }

    // At most this many changes share one transaction, so one batch cannot hold the write lock for long.
    static constexpr std::size_t max_batch = 128;

  protected:
    ~commit_queue() = default;

    struct pending {
        const change* run;
        bool kept = false;
        bool done = false;
        std::exception_ptr failure{};
        std::condition_variable wake{};  // done, or its turn to lead: one wake-up each, no thundering herd
    };

    // Hands the leader its batch: the queued changes (up to max_batch) at the moment it is called, so a
    // backend can first wait for its connection and let the changes queued meanwhile join.
    class batch_taker {
      public:
        explicit batch_taker(commit_queue& queue) : queue_(queue) {}
        const std::vector<pending*>& operator()() {
            taken_ = true;
            std::lock_guard lock(queue_.mutex_);
            const auto n = std::min(queue_.queue_.size(), max_batch);
            batch_.assign(queue_.queue_.begin(), queue_.queue_.begin() + static_cast<std::ptrdiff_t>(n));
            queue_.queue_.erase(
                queue_.queue_.begin(), queue_.queue_.begin() + static_cast<std::ptrdiff_t>(n)
            );
            return batch_;
        }
        [[nodiscard]] const std::vector<pending*>& batch() const { return batch_; }
        [[nodiscard]] bool taken() const { return taken_; }

      private:
        commit_queue& queue_;
        std::vector<pending*> batch_;
        bool taken_ = false;
    };

    // The backend's batch: take() it, run each change in a savepoint of one transaction (setting `kept`,
    // and `failure` for what a change threw), commit. A throw fails every change of the batch.
    virtual void commit_batch(batch_taker& take) = 0;

  private:
    void lead(std::unique_lock<std::mutex>& lock) {
        leading_ = true;
        lock.unlock();
        batch_taker take(*this);
        try {
            commit_batch(take);
            commits_.fetch_add(1, std::memory_order_acq_rel);
        } catch (...) {
            // Nothing of the batch is stored: no change was acknowledged, each caller gets the failure (also
            // when the backend failed before taking it: its connection could not be had).
            if (!take.taken()) {
                (void)take();
            }
            for (auto* p : take.batch()) {
                p->kept = false;
                if (!p->failure) {
                    p->failure = std::current_exception();
                }
            }
        }
        lock.lock();
        // Notified under the lock: a waiter cannot return (and destroy its pending) before we are done with
        // it.
        for (auto* p : take.batch()) {
            p->done = true;
            p->wake.notify_one();
        }
        leading_ = false;
        if (!queue_.empty()) {
            queue_.front()->wake.notify_one();  // the next batch's leader
        }
    }

    mutable std::mutex mutex_;  // guards queue_, leading_ and every pending's `done`
    std::deque<pending*> queue_;
    bool leading_ = false;
    std::atomic<std::uint64_t> commits_{0};
};

}  // namespace storefront::storage::detail
