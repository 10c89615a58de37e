#pragma once
// Access rules of the route tables, checked on the request head before any body byte is read.

#include <boost/asio/awaitable.hpp>

#include "core/write_policy.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/response.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// The caller, or the answer when `rule` refuses them: 401 for missing or bad credentials (with
// WWW-Authenticate), 403 for a valid caller the rule does not admit.
[[nodiscard]] boost::asio::awaitable<or_response<core::actor>> check_access(
    access_rule rule, const http::request_header<>& head, app_services& app
);

}  // namespace storefront::server
