#pragma once
// A background thread that runs one task at a fixed interval until destroyed (order expiry and the purge
// of old idempotency keys, issue 42). A task that throws is logged and runs again at the next interval.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

namespace storefront::server {

class periodic_task {
  public:
    // Starts the thread: `task` first runs one `interval` from now. `name` names it in the log.
    periodic_task(std::string name, std::chrono::milliseconds interval, std::function<void()> task);
    ~periodic_task();  // stops the thread (a running task finishes first)
    periodic_task(const periodic_task&) = delete;
    periodic_task& operator=(const periodic_task&) = delete;

  private:
    void loop(std::stop_token stop);

    std::string name_;
    std::chrono::milliseconds interval_;
    std::function<void()> task_;
    std::mutex mutex_;
    std::condition_variable_any wakeup_;
    std::jthread thread_;  // last: started once the members above exist
};

}  // namespace storefront::server
