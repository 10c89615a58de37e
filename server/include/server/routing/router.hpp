#pragma once
// The route table and dispatch: target parsing, 404/405, OPTIONS preflight, HEAD for GET routes, and the
// one try/catch that turns unexpected exceptions into a logged 500.

#include <boost/asio/awaitable.hpp>

#include "server/app/app_services.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/response.hpp"

namespace storefront::server {

// Answers one request. For HEAD the response still carries the GET body; the session sends only its length.
[[nodiscard]] boost::asio::awaitable<response> dispatch(const http_request& request, app_services& app);

}  // namespace storefront::server
