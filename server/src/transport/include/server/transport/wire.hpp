#pragma once
// Response head bytes: status line, a cached Date, the fixed headers every response carries, length and
// connection handling. Built into a reused buffer so the hot path does not allocate.

#include <string>
#include <string_view>

#include "server/codec/response.hpp"

namespace storefront::server {

struct head_options {
    bool keep_alive = true;
    bool http10 = false;  // an HTTP/1.0 client needs "Connection: keep-alive" to keep the connection
    std::string_view more_headers;  // this request's own complete header lines (RateLimit), after r's
};

// Replaces `out` with the head of `r` (ending in the blank line): with its Content-Encoding, Vary and ETag
// when routing set them. 204/304 carry no Content-Length.
void write_head(std::string& out, const response& r, const head_options& options);

// "Sun, 22 Nov 2026 02:09:12 GMT", recomputed at most once per second per thread.
[[nodiscard]] std::string_view cached_http_date();

}  // namespace storefront::server
