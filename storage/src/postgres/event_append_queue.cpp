// event_append_queue: the leader/follower queue in front of the change feed's shared log (as
// sqlite/group_commit.cpp in front of a SQLite file's write connection).

#include "postgres/event_append_queue.hpp"

#include <algorithm>

namespace storefront::storage::detail {

void event_append_queue::run(queued_append& a) {
    std::unique_lock lock(mutex_);
    queue_.push_back(&a);
    while (!a.done) {
        if (leading_) {
            a.wake.wait(lock);
        } else {
            lead(lock);  // may not take `a` when more than max_batch wait before it: then lead again
        }
    }
    if (a.failure) {
        std::rethrow_exception(a.failure);
    }
}

std::uint64_t event_append_queue::batches() const {
    std::lock_guard lock(mutex_);
    return batches_;
}

void event_append_queue::lead(std::unique_lock<std::mutex>& lock) {
    leading_ = true;
    const auto n = std::min(queue_.size(), max_batch);
    std::vector<queued_append*> batch(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    lock.unlock();
    try {
        write_(batch);
    } catch (...) {
        // Nothing of the batch committed: each appender gets the failure (no id of it is ever visible).
        for (auto* a : batch) {
            a->failure = std::current_exception();
        }
    }
    lock.lock();
    ++batches_;
    // Notified under the lock: a waiter cannot return (and destroy its queued_append) before we are done.
    for (auto* a : batch) {
        a->done = true;
        a->wake.notify_one();
    }
    leading_ = false;
    if (!queue_.empty()) {
        queue_.front()->wake.notify_one();  // the next batch's leader
    }
}

}  // namespace storefront::storage::detail
