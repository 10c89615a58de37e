#pragma once
// The systemd watchdog, tied to the I/O threads rather than to a timer alone: each tick posts a probe onto
// every I/O thread and pings only if every probe of the previous tick ran. A stalled or dead I/O thread
// therefore stops the pings and systemd restarts the instance (WatchdogSec=), while a merely idle one
// keeps them going.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace storefront::server {

// Which probes of the current round have run. Thread-safe: probes report from the I/O threads.
class probe_rounds {
  public:
    struct round_start {
        std::uint64_t round;     // pass to probe_ran from each of this round's probes
        bool previous_complete;  // every probe of the round before this one ran (false for the first)
    };

    // Ends the current round and begins one of `probes` probes.
    round_start begin_round(std::size_t probes);
    // A probe of `round` ran; probes of an ended round no longer count.
    void probe_ran(std::uint64_t round);

  private:
    std::mutex mutex_;
    std::uint64_t round_ = 0;  // 0: none begun
    std::size_t expected_ = 0;
    std::size_t ran_ = 0;
};

class io_watchdog {
  public:
    // Runs a function on one I/O thread (asio::post onto its io_context).
    using thread_poster = std::function<void(std::function<void()>)>;

    // Every `period`: ping() if all probes of the last round ran, then a new round on `threads`.
    io_watchdog(
        std::vector<thread_poster> threads, std::chrono::microseconds period, std::function<void()> ping
    );
    ~io_watchdog();
    io_watchdog(const io_watchdog&) = delete;
    io_watchdog& operator=(const io_watchdog&) = delete;

    void start();
    // Stops ticking and joins the thread. Probes already posted may still run later: they share rounds_.
    void stop();

  private:
    void run();

    std::vector<thread_poster> threads_;
    std::chrono::microseconds period_;
    std::function<void()> ping_;
    std::shared_ptr<probe_rounds> rounds_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace storefront::server
