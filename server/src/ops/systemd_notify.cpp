// sd_notify / sd_watchdog_enabled from libsystemd (Debian libsystemd-dev), kept out of every header.

#include "server/ops/systemd_notify.hpp"

#include <atomic>
#include <cstdint>

#include <systemd/sd-daemon.h>

#include "server/telemetry/log.hpp"

namespace storefront::server {

namespace {

// Set while notifications fail, so a missing socket logs once, not on every watchdog ping.
std::atomic<bool> failing{false};

void notify(const char* state) {
    // < 0: the socket is gone (systemd restarting?); serving goes on, the log says why pings may stop.
    if (const int r = sd_notify(0, state); r < 0) {
        if (!failing.exchange(true)) {
            log_event("warning", "sd_notify_failed", {field("state", state), field("errno", -r)});
        }
    } else {
        failing.store(false);
    }
}

}  // namespace

void notify_ready() {
    notify("READY=1\nSTATUS=serving");
}

void notify_stopping() {
    notify("STOPPING=1\nSTATUS=draining");
}

void notify_watchdog() {
    notify("WATCHDOG=1");
}

std::optional<std::chrono::microseconds> watchdog_timeout() {
    std::uint64_t usec = 0;
    // 0 (unset_environment): the variables stay; WATCHDOG_PID, when set, must name this process.
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) {
        return std::nullopt;
    }
    return std::chrono::microseconds(usec);
}

}  // namespace storefront::server
