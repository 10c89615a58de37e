#pragma once
// Admission, the stage between the front door and the handler: on the request's head alone, the target
// (escaped, origin-form), the sandbox it names, the route (404, 405 with Allow, the CORS preflight), its
// data set (the shared view or the sandbox, resolved once here), the access rule (401/403), the CSRF and
// WebSocket origin checks, the sandbox's write quota for a writing route and the body policy (413 for a
// declared body over the route's limit). No body byte is read before it passes.

#include <optional>

#include <boost/asio/awaitable.hpp>

#include "routed_request.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

struct routing_services;

// `routed` filled in and nullopt, or the answer to send instead (which may also be the answer to a request
// on a sandbox as a whole or to the request inspector).
[[nodiscard]] boost::asio::awaitable<std::optional<response>> admit_request(
    const http::request_header<>& head, const routing_services& services, routed_request& routed
);

}  // namespace storefront::server
