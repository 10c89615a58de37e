#pragma once
// Names the calling thread for the operator's tools (top -H, ps -L, perf, gdb, /proc/PID/task/TID/comm):
// "sf-io:8080/0" for an I/O thread, "sf-write/0", "sf-storage", "sf-log", "sf-watchdog", "sf-<task>". The
// kernel keeps 15 bytes; a longer name is cut there.

#include <pthread.h>
#include <string>
#include <string_view>

namespace storefront::server {

inline void name_this_thread(std::string_view name) {
    const std::string kept(name.substr(0, 15));
    (void
    )::pthread_setname_np(::pthread_self(), kept.c_str());  // a name is a courtesy: failure changes nothing
}

}  // namespace storefront::server
