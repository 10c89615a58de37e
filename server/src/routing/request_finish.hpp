#pragma once
// Finishing, the stage after the handler (or after a refusal): the one place a failure thrown by admission
// or the handler becomes an answer (storage down or busy: 503 with Retry-After; anything else: a logged
// 500), the answer in its surface's error shape with its CORS fields, whether it may be replayed, and the
// sandbox's inspector record. The answer's ETag, 304 and content coding are finish_response's (run on
// the handler's answers only).

#include <chrono>
#include <cstdint>
#include <exception>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "routed_request.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

struct routing_services;

// The answer to `failure`, thrown while `routed` was admitted or handled, in the surface's error style.
[[nodiscard]] response failure_answer(std::exception_ptr failure, const routed_request& routed);

// Renders an error `reply` not rendered yet in the shape of the surface `request` went to (the edge, the
// one place a handler's or admission's error is written) and sets its CORS fields.
void finish_answer(const http_request& request, const routing_services& services, response& reply);

// A request, what admission made of it, and the answer it got: what the steps after the answer read.
struct answered_request {
    const http_request& request;
    const routed_request& routed;
    const response& reply;
};

// Whether the handler's answer answers every byte-identical request until the shared data changes
// (request_outcome::reusable_at).
[[nodiscard]] bool reusable(const answered_request& answered, const routing_services& services);

// Records a sandbox request and its answer in the sandbox's inspector log (in the background when the
// log is in the shared database, spawned on `executor`); the request arrived at `started`. Not for the
// shared view nor for the inspector's own requests.
void record_for_inspector(
    const boost::asio::any_io_executor& executor,
    const answered_request& answered,
    std::chrono::steady_clock::time_point started,
    const routing_services& services
);

}  // namespace storefront::server
