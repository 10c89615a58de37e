// stream_wakeups and stream_waiter: see the header.

#include "stream_wakeups.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace storefront::server {

void stream_wakeups::add(std::shared_ptr<wakeable> target) {
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

void stream_wakeups::close() {
    std::vector<std::shared_ptr<wakeable>> dropped;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        dropped.swap(pending_);
    }
    // Outside the lock: what the dropped wake-ups and writers' coroutines own is destroyed here, and a
    // destructor that reaches add() must find it closed, not wait on a lock its own thread holds.
    sends_.abandon();
}

void stream_wakeups::run_batch() {
    {
        std::lock_guard lock(mutex_);
        running_.swap(pending_);
        posted_ = false;
    }
    // What was queued before (an answer, e.g. the 201 of the write that published this event) goes first,
    // not behind the fan-out. A woken stream runs until it waits again, or until its write joins the thread's
    // batch of sends, which goes to the kernel right after the loop (and resumes each writer with what its
    // send gave).
    sends_.flush();
    for (const auto& target : running_) {
        target->wake_now();
    }
    running_.clear();
    sends_.flush();
}

// The deadline timer's handler. Destroyed without having run only when the io_context goes away with the
// stream parked: it then drops the parked wait, whose coroutine frame holds the sink that holds the waiter
// (a cycle that would otherwise never be freed).
struct stream_waiter::deadline_due {
    std::shared_ptr<stream_waiter> w;

    explicit deadline_due(std::shared_ptr<stream_waiter> waiter) : w(std::move(waiter)) {}
    deadline_due(deadline_due&&) noexcept = default;
    deadline_due& operator=(deadline_due&&) = delete;
    ~deadline_due() {
        if (w) {
            w->parked_.drop();
        }
    }
    void operator()(const boost::system::error_code& ec) {
        const auto waiter = std::move(w);
        if (!ec) {  // due; not when re-armed for a later deadline or cancelled
            waiter->pending_.store(true);
            waiter->wake_now();
        }
    }
};

void stream_waiter::wake(stream_wakeups& wakeups) {
    if (!pending_.exchange(true)) {
        wakeups.add(shared_from_this());
    }
}

void stream_waiter::wake_now() {
    if (parked_) {
        parked_.resume();
    }
}

boost::asio::awaitable<void> stream_waiter::wait_until(std::chrono::steady_clock::time_point deadline) {
    if (pending_.exchange(false) || deadline <= std::chrono::steady_clock::now()) {
        co_return;
    }
    arm(deadline);
    co_await boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void()>(
        [this](auto handler) { parked_.park(std::move(handler)); }, boost::asio::use_awaitable
    );
    // Woken: what woke it is for the caller to read (its queue, its peer, the instance draining).
    pending_.store(false);
}

void stream_waiter::arm(std::chrono::steady_clock::time_point deadline) {
    if (deadline == armed_for_) {
        return;  // the usual case: the keep-alive deadline moves once per keep-alive period
    }
    armed_for_ = deadline;
    timer_.expires_at(deadline);  // a wait for the old deadline ends with operation_aborted
    timer_.async_wait(deadline_due(shared_from_this()));
}

}  // namespace storefront::server
