// periodic_task: a jthread waiting on a condition variable with the stop token, so a stop wakes it at once.

#include "server/ops/periodic_task.hpp"

#include <exception>
#include <utility>

#include "server/telemetry/log.hpp"
#include "server/telemetry/thread_name.hpp"

namespace storefront::server {

periodic_task::periodic_task(std::string name, std::chrono::milliseconds interval, std::function<void()> task)
    : name_(std::move(name)),
      interval_(interval),
      task_(std::move(task)),
      thread_([this](std::stop_token stop) {
          name_this_thread("sf-" + name_);
          loop(std::move(stop));
      }) {}

periodic_task::~periodic_task() {
    thread_.request_stop();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void periodic_task::loop(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (true) {
        // Returns at the interval, or at once when a stop is requested (the predicate never holds).
        (void)wakeup_.wait_for(lock, stop, interval_, [] { return false; });
        if (stop.stop_requested()) {
            return;
        }
        lock.unlock();
        try {
            task_();
        } catch (const std::exception& e) {
            log_event("warning", "periodic_task_failed", {field("task", name_), field("what", e.what())});
        }
        lock.lock();
    }
}

}  // namespace storefront::server
