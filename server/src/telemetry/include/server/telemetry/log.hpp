#pragma once
// Machine-readable logging: one JSON object per line on stdout; lines from several threads never
// interleave. Events are written at once; access-log lines (log_request) in batches, at most 100 ms late
// (and at exit). Secrets are never passed here.

#include <chrono>
#include <initializer_list>
#include <string_view>
#include <utility>

namespace storefront::server {

struct log_field {
    std::string_view name;
    std::string_view text;  // used when is_number is false
    long long number = 0;
    bool is_number = false;
};

[[nodiscard]] inline log_field field(std::string_view name, std::string_view text) {
    return {name, text, 0, false};
}
[[nodiscard]] inline log_field field(std::string_view name, long long n) {
    return {name, {}, n, true};
}

// From now on every line carries "instance":n right after "event" (systemd storefront@n); call once at
// start-up, before other threads log.
void set_log_instance(unsigned n);

void log_event(std::string_view level, std::string_view event, std::initializer_list<log_field> fields = {});

// What one access-log line says about a request. `client` is the address client_address() chose (never
// raw header bytes); `path` carries no query string (it may hold secrets).
struct access_entry {
    std::string_view method;
    std::string_view path;
    unsigned status = 0;
    std::chrono::microseconds duration{};
    std::string_view client;
    std::string_view sandbox;  // the sandbox the request named (prefix or X-Sandbox), when any
};

void log_request(const access_entry& entry);

// Writes the access-log lines still buffered (at shutdown; an event does it too).
void flush_log();

}  // namespace storefront::server
