#pragma once
// The systemd notification protocol (sd_notify(3)) for Type=notify units: READY=1 once serving, STOPPING=1
// on the stop signal, WATCHDOG=1 keep-alives. Without NOTIFY_SOCKET (not under systemd, tests) every call
// is a no-op.

#include <chrono>
#include <optional>

namespace storefront::server {

// READY=1 with a STATUS line: listeners are open and the data is loaded.
void notify_ready();

// STOPPING=1: a stop signal came; the instance drains, then exits.
void notify_stopping();

// WATCHDOG=1: this process is alive (sent by the I/O watchdog only while every I/O thread runs).
void notify_watchdog();

// How often systemd expects WATCHDOG=1 (WatchdogSec=, passed as WATCHDOG_USEC for this process), or nullopt
// when no watchdog is asked for.
[[nodiscard]] std::optional<std::chrono::microseconds> watchdog_timeout();

}  // namespace storefront::server
