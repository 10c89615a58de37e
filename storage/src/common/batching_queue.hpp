#pragma once
// The leader/follower queue behind group commits (a SQLite file's write connection, the change feed's
// PostgreSQL log): concurrent callers queue their work, the first waiting thread leads and runs every queued
// item (up to a bound) as one batch, so a batch pays one commit instead of one per caller; each caller
// returns once its batch is done. With an empty queue an item runs at once: there is no timer.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <vector>

namespace storefront::storage::detail {

// What the queue keeps of each waiting item (an item type derives from it).
struct batch_waiter {
    bool done = false;
    std::exception_ptr failure{};    // the batch's failure, or the item's own (rethrown to its caller)
    std::condition_variable wake{};  // done, or its turn to lead: one wake-up each, no thundering herd
};

template <class Item>
class batching_queue {
  public:
    explicit batching_queue(std::size_t max_batch) : max_batch_(max_batch) {}
    batching_queue(const batching_queue&) = delete;
    batching_queue& operator=(const batching_queue&) = delete;

    // Queues `item` and returns once a batch that held it is done; rethrows its `failure`. The leader calls
    // `run_batch(take)`, where `take()` removes the next batch (at most max_batch items, the oldest first)
    // from the queue and answers it: run_batch may first take what the batch needs (a write connection),
    // so items queued meanwhile join. An exception of run_batch becomes the failure of every item of the
    // batch that has none of its own.
    template <class RunBatch>
    void run(Item& item, RunBatch&& run_batch) {
        std::unique_lock lock(mutex_);
        queue_.push_back(&item);
        while (!item.done) {
            if (leading_) {
                item.wake.wait(lock);
            } else {
                lead(lock, run_batch);  // may not take `item` when more than max_batch wait before it
            }
        }
        if (item.failure) {
            std::rethrow_exception(item.failure);
        }
    }

    // Items waiting for a batch (the running one excluded), and batches run so far (for tests).
    [[nodiscard]] std::size_t queued() const {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }
    [[nodiscard]] std::uint64_t batches() const {
        std::lock_guard lock(mutex_);
        return batches_;
    }

  private:
    template <class RunBatch>
    void lead(std::unique_lock<std::mutex>& lock, RunBatch& run_batch) {
        leading_ = true;
        lock.unlock();
        std::vector<Item*> batch;
        const auto take = [&]() -> const std::vector<Item*>& {
            std::lock_guard again(mutex_);
            const auto n = static_cast<std::ptrdiff_t>(std::min(queue_.size(), max_batch_));
            batch.assign(queue_.begin(), queue_.begin() + n);
            queue_.erase(queue_.begin(), queue_.begin() + n);
            return batch;
        };
        try {
            run_batch(take);
        } catch (...) {
            for (auto* item : batch) {
                if (!item->failure) {
                    item->failure = std::current_exception();
                }
            }
        }
        lock.lock();
        ++batches_;
        // Notified under the lock: a waiter cannot return (and destroy its item) before we are done with it.
        for (auto* item : batch) {
            item->done = true;
            item->wake.notify_one();
        }
        leading_ = false;
        if (!queue_.empty()) {
            queue_.front()->wake.notify_one();  // the next batch's leader
        }
    }

    const std::size_t max_batch_;
    mutable std::mutex mutex_;  // guards queue_, leading_, batches_ and every item's `done`
    std::deque<Item*> queue_;
    bool leading_ = false;
    std::uint64_t batches_ = 0;
};

}  // namespace storefront::storage::detail
