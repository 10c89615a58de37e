#pragma once
// The end of one request on a connection: its metrics (route label, status, latency, bytes) and its access
// log line. Nothing here decides anything; transport and the front door call it once per answer.

#include <chrono>
#include <cstddef>
#include <string_view>

#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// What answering and logging read of a request, whether it was parsed or replayed.
struct request_facts {
    http::verb method = http::verb::get;
    std::string_view method_text;
    std::string_view target;
    bool keep_alive = true;  // as the request's version and Connection field ask
    bool http10 = false;
    std::size_t body_bytes = 0;
    const http::request_header<>* head = nullptr;  // a parsed request's head; nullptr for a replayed one
};

[[nodiscard]] request_facts facts_of(const http_request& request);

// One answered request as metrics and the access log see it.
struct answered_request {
    const request_facts& request;
    const response& reply;
    const route* matched = nullptr;  // the metrics' route label (nullptr: no route)
    bool logged = true;              // whether the access log gets a line (probes may not)
    std::chrono::steady_clock::time_point started;
    std::size_t bytes_in = 0;   // header section and body read
    std::size_t bytes_out = 0;  // head and body written
    std::string_view client;    // the peer, or the client a trusted proxy names
};

// Counts `answered` and, with the access log on (--access-log), logs it.
void account_answered(const answered_request& answered, bool access_log);

// Counts and logs a refusal sent before the request was parsed (no method, path or route to name).
void account_refused(const response& reply, std::size_t bytes_out, std::string_view peer, bool access_log);

}  // namespace storefront::server
