// JSON-lines logger: each line is built in a local buffer and written with one write(2) call.

#include "server/telemetry/log.hpp"

#include <atomic>
#include <chrono>
#include <string>

#include <unistd.h>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

void write_line(std::string& line) {
    line += '\n';
    const char* data = line.data();
    std::size_t left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, data, left);
        if (n <= 0) {
            return;  // a closed stdout must not take the server down
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
}

// -1: no instance configured. Relaxed is enough: set before the I/O threads start.
std::atomic<long long> log_instance{-1};

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

void log_event(std::string_view level, std::string_view event, std::initializer_list<log_field> fields) {
    std::string line;
    line.reserve(160);
    json_writer w(line);
    w.begin_object()
        .key("ts")
        .value(iso8601_ms(now_ms()))
        .key("level")
        .value(level)
        .key("event")
        .value(event);
    if (const long long instance = log_instance.load(std::memory_order_relaxed); instance >= 0) {
        w.key("instance").value(static_cast<std::int64_t>(instance));
    }
    for (const auto& f : fields) {
        w.key(f.name);
        if (f.is_number) {
            w.value(static_cast<std::int64_t>(f.number));
        } else {
            w.value(f.text);
        }
    }
    w.end_object();
    write_line(line);
}

void set_log_instance(unsigned n) {
    log_instance.store(n, std::memory_order_relaxed);
}

void log_request(const access_entry& entry) {
    const auto method = field("method", entry.method);
    const auto path = field("path", entry.path);
    const auto status = field("status", static_cast<long long>(entry.status));
    const auto duration = field("duration_us", static_cast<long long>(entry.duration.count()));
    const auto client = field("client", entry.client);
    if (entry.sandbox.empty()) {
        log_event("info", "request", {method, path, status, duration, client});
    } else {
        log_event(
            "info", "request", {method, path, status, duration, client, field("sandbox", entry.sandbox)}
        );
    }
}

}  // namespace storefront::server
