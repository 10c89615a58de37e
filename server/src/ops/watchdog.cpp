// The probe-round bookkeeping and the watchdog thread that posts probes and pings.

#include "server/ops/watchdog.hpp"

#include <utility>

#include "server/telemetry/thread_name.hpp"

namespace storefront::server {

probe_rounds::round_start probe_rounds::begin_round(std::size_t probes) {
    const std::lock_guard lock(mutex_);
    const bool complete = round_ != 0 && ran_ >= expected_;
    ++round_;
    expected_ = probes;
    ran_ = 0;
    return {round_, complete};
}

void probe_rounds::probe_ran(std::uint64_t round) {
    const std::lock_guard lock(mutex_);
    if (round == round_) {
        ++ran_;
    }
}

io_watchdog::io_watchdog(
    std::vector<thread_poster> threads, std::chrono::microseconds period, std::function<void()> ping
)
    : threads_(std::move(threads)),
      period_(period),
      ping_(std::move(ping)),
      rounds_(std::make_shared<probe_rounds>()) {}

io_watchdog::~io_watchdog() {
    stop();
}

void io_watchdog::start() {
    thread_ = std::thread([this] {
        name_this_thread("sf-watchdog");
        run();
    });
}

void io_watchdog::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void io_watchdog::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        const auto round = rounds_->begin_round(threads_.size());
        if (round.previous_complete) {
            ping_();
        }
        for (const auto& post : threads_) {
            post([rounds = rounds_, id = round.round] { rounds->probe_ran(id); });
        }
        wake_.wait_for(lock, period_, [this] { return stopping_; });
    }
}

}  // namespace storefront::server
