#pragma once
// How an I/O thread's event streams (SSE and WebSocket) wait and are woken. A published event wakes every
// subscriber it matches, from the publishing thread; a post per wake-up would be a locked queue operation
// per subscriber (10,000 per event at the default limit), so the wake-ups that arrive before the thread
// runs them share one post (stream_wakeups), and a waiting stream is a parked completion handler that the
// batch resumes directly (stream_waiter), not a timer wait cancelled and re-armed for every event.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "server/transport/parked_handler.hpp"
#include "server/transport/send_batch.hpp"

namespace storefront::server {

// What a wake-up reaches: called on the I/O thread.
class wakeable {
  public:
    virtual void wake_now() = 0;

  protected:
    ~wakeable() = default;
};

class stream_wakeups {
  public:
    explicit stream_wakeups(boost::asio::io_context& io) : io_(io) {}

    // Any thread: `target->wake_now()` runs on the I/O thread in the next batch; nothing after close().
    void add(std::shared_ptr<wakeable> target);
    // The thread's batch of sends (send_batch.hpp): event copies and answers.
    send_batch& sends() { return sends_; }
    // Once the I/O thread has stopped for good: later wake-ups are dropped (the io_context goes away), and so
    // are sends still queued.
    void close();

  private:
    void run_batch();

    boost::asio::io_context& io_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<wakeable>> pending_;  // guarded by mutex_
    bool posted_ = false;                             // guarded by mutex_: a batch is queued
    bool closed_ = false;                             // guarded by mutex_
    std::vector<std::shared_ptr<wakeable>> running_;  // the I/O thread's only
    send_batch sends_{io_};                           // the I/O thread's only
};

// One stream's wait: parked until a wake-up, its deadline, or wake_now() on the I/O thread. The deadline's
// timer is armed only when the deadline changes (a stream's keep-alive cadence), not for every event. The
// stream's sink, wakers and handlers share it.
class stream_waiter final : public wakeable, public std::enable_shared_from_this<stream_waiter> {
  public:
    explicit stream_waiter(const boost::asio::any_io_executor& ex) : timer_(ex) {}

    // Any thread: ends the current (or next) wait through `wakeups`' next batch.
    void wake(stream_wakeups& wakeups);
    // I/O thread: resumes the parked wait now (the stream runs until it waits again), if there is one.
    void wake_now() override;
    // I/O thread: returns at once when woken since the last wait ended or when `deadline` has passed.
    [[nodiscard]] boost::asio::awaitable<void> wait_until(std::chrono::steady_clock::time_point deadline);
    // The stream ends: the timer's wait ends too (its handler holds this).
    void cancel() { timer_.cancel(); }

  private:
    struct deadline_due;
    void arm(std::chrono::steady_clock::time_point deadline);

    boost::asio::steady_timer timer_;
    std::chrono::steady_clock::time_point armed_for_{};  // the timer's deadline
    parked_handler<> parked_;
    std::atomic<bool> pending_{false};  // woken since the last wait ended (set from any thread)
};

}  // namespace storefront::server
