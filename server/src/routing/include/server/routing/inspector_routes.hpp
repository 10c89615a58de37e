#pragma once
// The request inspector's routes inside a sandbox (issue 43): GET /sandbox/{id}/requests?limit=, DELETE
// /sandbox/{id}/requests, GET /sandbox/{id}/requests/stream (server-sent events of new records). Dispatch
// answers them before the route tables (they are no surface's routes) and does not record them; and
// records every other request a sandbox answered (record_request).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"
#include "server/services/request_recorder.hpp"

namespace storefront::server {

// Whether `path` (with the /sandbox/{id} prefix taken off) is one of the inspector's: /requests,
// /requests/stream, and the page /inspector with its files under /inspector/.
[[nodiscard]] bool inspector_path(std::string_view path);

// Where an inspector request goes: its sandbox, the path inside it (as inspector_path accepted it) and the
// query (without '?').
struct inspector_target {
    std::string_view sandbox;
    std::string_view path;
    std::string_view query;
};

// The answer to an inspector request from `logs`, at most `max_streams` streams open: 200, 204, the
// stream, 400 for a bad limit, 405 with Allow, 503 at the stream limit.
[[nodiscard]] response inspector_answer(
    const http::request_header<>& head, inspector_target target, request_logs& logs, std::size_t max_streams
);

// The record of `request` and its final `reply` (secrets redacted, bodies cut); it arrived at `started`.
[[nodiscard]] request_record inspector_record(
    const http_request& request, const response& reply, std::chrono::steady_clock::time_point started
);

}  // namespace storefront::server
