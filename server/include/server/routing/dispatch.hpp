#pragma once
// Request dispatch in two phases around the body read: on the head (target, route, OPTIONS, access rule,
// body limit) and, once the body is in, the handler itself inside the one try/catch that turns an escaped
// exception into a logged 500. 404, 405, 401 and 413 therefore cost no body read.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "core/query.hpp"
#include "core/write_policy.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/response.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

class app_services;

// A request whose head was admitted: its route and what the head told us. Views point into the head.
struct routed_request {
    // The target with the bytes browsers send raw (`|`, `[`, UTF-8, …) percent-encoded, when there were any;
    // on the heap so that `path` and the captured segments stay valid when this moves.
    std::unique_ptr<const std::string> escaped_target;
    route_match match;
    std::string_view path;  // without query and trailing slash
    core::query_params query;
    core::actor actor;
    std::size_t body_limit = 0;  // the route's body policy's limit
};

// Phase 1, on the head alone: the routed request, or the answer to send instead (400 malformed target,
// 404, 405 with Allow, the OPTIONS preflight, 401/403 from the access rule, 413 for a declared body
// over the route's limit).
[[nodiscard]] boost::asio::awaitable<or_response<routed_request>> admit_request(
    const http::request_header<>& head, app_services& app
);

// Phase 2, with the body read: runs the handler. For HEAD the response still carries the GET body; the
// session sends only its length.
[[nodiscard]] boost::asio::awaitable<response> run_handler(
    routed_request& routed, const http_request& request, app_services& app
);

// Both phases for a complete request (in-process tests and the fuzz harnesses).
[[nodiscard]] boost::asio::awaitable<response> dispatch(const http_request& request, app_services& app);

}  // namespace storefront::server
