// stream_wakeups: see the header.

#include "stream_wakeups.hpp"

#include <boost/asio/post.hpp>

namespace storefront::server {

void stream_wakeups::add(std::shared_ptr<wakeable> target) {
    {
        std::lock_guard lock(mutex_);
        if (closed_) {
            return;
        }
        pending_.push_back(std::move(target));
        if (posted_) {
            return;  // the queued batch takes this one too
        }
        posted_ = true;
        // Under the lock: close() cannot come in between, so io_ is still there.
        boost::asio::post(io_, [this] { run_batch(); });
    }
}

void stream_wakeups::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    pending_.clear();
}

void stream_wakeups::run_batch() {
    {
        std::lock_guard lock(mutex_);
        running_.swap(pending_);
        posted_ = false;
    }
    // A woken stream runs until it waits again (its write included), inside this loop.
    for (const auto& target : running_) {
        target->wake_now();
    }
    running_.clear();
}

}  // namespace storefront::server
