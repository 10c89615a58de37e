#pragma once
// Wake-ups of one I/O thread's event streams, run as batches on that thread. A published event wakes every
// subscriber it matches, from the publishing thread; a post per wake-up would be a locked queue operation
// per subscriber (10,000 per event at the default limit), so the wake-ups that arrive before the thread
// runs them share one post.

#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>

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
    // Once the I/O thread has stopped for good: later wake-ups are dropped (the io_context goes away).
    void close();

  private:
    void run_batch();

    boost::asio::io_context& io_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<wakeable>> pending_;  // guarded by mutex_
    bool posted_ = false;                             // guarded by mutex_: a batch is queued
    bool closed_ = false;                             // guarded by mutex_
    std::vector<std::shared_ptr<wakeable>> running_;  // the I/O thread's only
};

}  // namespace storefront::server
