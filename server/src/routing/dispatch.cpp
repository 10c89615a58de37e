// Dispatch: target parsing, route match, preflight, access rule and body limit on the head; then the
// handler under the single try/catch.

#include "server/routing/dispatch.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include <boost/url/parse.hpp>

#include "server/app/app_services.hpp"
#include "server/codec/request_body.hpp"
#include "server/ops/log.hpp"
#include "server/routing/access.hpp"
#include "server/routing/error_responses.hpp"
#include "storage/storage_error.hpp"

namespace storefront::server {

namespace {

constexpr std::string_view cors_allow_headers = "Content-Type, Authorization, api_key";

response preflight(std::string_view allow) {
    response r;
    r.status = http::status::no_content;
    r.with_header("Allow", allow)
        .with_header("Access-Control-Allow-Methods", allow)
        .with_header("Access-Control-Allow-Headers", cors_allow_headers)
        .with_header("Access-Control-Max-Age", "86400");
    return r;
}

// Room for the multipart boundaries and part headers around an upload of upload_limit bytes.
constexpr std::size_t multipart_overhead = 16 * 1024;

std::size_t limit_of(body_policy policy, const limits_config& limits) {
    switch (policy) {
        case body_policy::none:
        case body_policy::json_or_form:
            return limits.form_body_limit;
        case body_policy::binary:
            return limits.body_limit;
        case body_policy::multipart:
            return limits.upload_limit + multipart_overhead;
    }
    return limits.form_body_limit;
}

// The declared Content-Length (already checked to be plain digits by the framing policy), or 0.
std::size_t declared_length(const http::request_header<>& head) {
    const std::string_view value = head[http::field::content_length];
    std::size_t n = 0;
    for (const char c : value) {
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

}  // namespace

boost::asio::awaitable<or_response<routed_request>> admit_request(
    const http::request_header<>& head, app_services& app
) {
    routed_request routed;
    // Beast has already refused control characters, spaces and NUL; what else a browser sends raw is
    // escaped here so Boost.URL (strict RFC 3986) sees what the client meant. A bad '%' escape stays a 400.
    std::string_view raw_target = head.target();
    if (std::any_of(raw_target.begin(), raw_target.end(), needs_uri_escape)) {
        routed.escaped_target = std::make_unique<const std::string>(escape_raw_uri_bytes(raw_target));
        raw_target = *routed.escaped_target;
    }
    const auto target = boost::urls::parse_origin_form(raw_target);
    const std::string_view method = head.method_string();
    if (!target) {
        co_return http_error(http::status::bad_request, "Malformed request target");
    }
    routed.path = target->encoded_path();
    if (routed.path.size() > 1 && routed.path.back() == '/') {
        routed.path.remove_suffix(1);  // "/api/v1/products/" is "/api/v1/products"
    }
    routed.match = app.routes().match(head.method(), routed.path);
    switch (routed.match.outcome) {
        case route_match::kind::not_found:
            co_return route_not_found(method, routed.path);
        case route_match::kind::method_not_allowed:
            if (head.method() == http::verb::options) {
                co_return preflight(routed.match.allow);
            }
            co_return method_not_allowed(method, routed.path, routed.match.allow);
        case route_match::kind::found:
            break;
    }
    const route& r = *routed.match.matched;
    auto caller = co_await check_access(r.access, head, app);
    if (!caller) {
        co_return std::move(caller).error();
    }
    routed.actor = std::move(*caller);
    routed.body_limit = limit_of(r.body, app.limits());
    if (declared_length(head) > routed.body_limit) {
        co_return http_error(http::status::payload_too_large, "Request body too large");
    }
    for (const auto param : target->params()) {
        routed.query.push_back({std::string(param.key), std::string(param.value)});
    }
    co_return routed;
}

boost::asio::awaitable<response> run_handler(
    routed_request& routed, const http_request& request, app_services& app
) {
    request_context ctx{
        request,
        routed.path,
        std::move(routed.match.params),
        std::move(routed.query),
        std::move(routed.actor)};
    try {
        co_return co_await routed.match.matched->handler(ctx, app);
    } catch (const storage::storage_unavailable& e) {
        // A backend that is down or slow: 503 with Retry-After, in the surface's own error style.
        log_event(
            "warning",
            "storage_unavailable",
            {field("operation", routed.match.matched->operation), field("what", e.what())}
        );
        const bool petstore = routed.match.table && routed.match.table->errors == error_style::petstore;
        co_return petstore ? pet_error_response(core::errc::storage_unavailable)
                           : error_response(core::errc::storage_unavailable);
    } catch (const std::exception& e) {
        log_event(
            "error",
            "handler_exception",
            {field("operation", routed.match.matched->operation),
             field("path", routed.path),
             field("what", e.what())}
        );
    }
    co_return internal_error();
}

boost::asio::awaitable<response> dispatch(const http_request& request, app_services& app) {
    auto routed = co_await admit_request(request.base(), app);
    if (!routed) {
        co_return std::move(routed).error();
    }
    if (request.body().size() > routed->body_limit) {
        co_return http_error(http::status::payload_too_large, "Request body too large");
    }
    co_return co_await run_handler(*routed, request, app);
}

}  // namespace storefront::server
