// write_lane: the writer threads, each of which takes one view's queued writes as a batch, runs them in one
// storage::write_batch, commits, and answers each write's coroutine.

#include "server/services/write_lane.hpp"

#include <algorithm>
#include <string>

#include "server/telemetry/thread_name.hpp"
#include "storage/storage_error.hpp"
#include "storage/write_batch.hpp"

namespace storefront::server {

namespace {

// A failed batch's failure, once for each of its writes: their answers resume on several I/O threads, and
// one exception shared by them (its message too) is freed by whichever finishes last, through reference
// counts in libstdc++ that ThreadSanitizer cannot see. A storage failure is copied with a message of its
// own; anything else stays shared.
std::exception_ptr failure_for_one_write(const std::exception_ptr& lost) {
    try {
        std::rethrow_exception(lost);
    } catch (const storage::storage_unavailable& e) {
        return std::make_exception_ptr(storage::storage_unavailable(std::string(e.what())));
    } catch (...) {
        return lost;
    }
}

}  // namespace

write_lane::write_lane(std::size_t max_queued, std::size_t writers) : max_queued_(max_queued) {
    writers = std::max<std::size_t>(1, writers);
    writers_.reserve(writers);
    for (std::size_t i = 0; i < writers; ++i) {
        writers_.emplace_back([this, i] {
            name_this_thread("sf-write/" + std::to_string(i));
            serve();
        });
    }
}

write_lane::~write_lane() {
    stop();
}

void write_lane::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    ready_.notify_all();
    for (auto& writer : writers_) {
        if (writer.joinable()) {
            writer.join();
        }
    }
}

std::size_t write_lane::counted(std::size_t write_lane::*counter) const {
    std::lock_guard lock(mutex_);
    return this->*counter;
}

void write_lane::submit(write* w) {
    bool refused = false;
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        refused = waiting_ >= max_queued_;
        if (refused) {
            ++rejected_;
        } else {
            ++waiting_;
            queue_.push_back(w);
            // One wake-up per idle writer is enough: a woken writer takes all that is queued when it runs.
            wake = idle_ > woken_;
            woken_ += wake ? 1 : 0;
        }
    }
    if (refused) {
        w->fail(std::make_exception_ptr(offload_rejected()));
        w->answer();  // posts the refusal to the waiting coroutine, which throws it
    } else if (wake) {
        ready_.notify_one();
    }
}

void write_lane::serve() {
    for (;;) {
        std::vector<write*> batch;
        {
            std::unique_lock lock(mutex_);
            while (queue_.empty() && !stopping_) {
                ++idle_;
                ready_.wait(lock);
                --idle_;
                woken_ -= woken_ > 0 ? 1 : 0;
            }
            if (queue_.empty()) {
                return;  // stopping, and every queued write answered
            }
            batch = take_batch();
        }
        run_batch(batch);
        {
            std::lock_guard lock(mutex_);
            waiting_ -= batch.size();
            ++batches_;
            writes_ += batch.size();
        }
        for (auto* w : batch) {
            w->answer();
        }
    }
}

std::vector<write_lane::write*> write_lane::take_batch() {
    // The oldest write and the writes of the same stores queued after it, in order; the others keep theirs.
    const void* stores = queue_.front()->stores;
    std::vector<write*> batch;
    std::deque<write*> others;
    for (auto* w : queue_) {
        if (w->stores == stores && batch.size() < max_batch) {
            batch.push_back(w);
        } else {
            others.push_back(w);
        }
    }
    queue_.swap(others);
    return batch;
}

void write_lane::run_batch(const std::vector<write*>& batch) {
    std::exception_ptr lost;
    try {
        storage::write_batch together;
        for (auto* w : batch) {
            w->run();
        }
        together.commit();
    } catch (...) {
        lost = std::current_exception();  // nothing of the batch is on disk: no write is acknowledged
    }
    // The after-commit steps keep cached lists current. While more writes of the same stores wait, the
    // batch that takes them runs its steps for both: under 64 writers, patching the lists after every batch
    // took a fifth of the writer thread. A reader in between finds a list behind and brings it up to date.
    const bool superseded = !lost && writes_waiting_for(batch.front()->stores);
    for (auto* w : batch) {
        if (lost) {
            w->fail(failure_for_one_write(lost));
        } else if (!superseded) {
            w->committed();
        }
    }
}

bool write_lane::writes_waiting_for(const void* stores) const {
    std::lock_guard lock(mutex_);
    return std::any_of(queue_.begin(), queue_.end(), [stores](const write* w) {
        return w->stores == stores;
    });
}

}  // namespace storefront::server
