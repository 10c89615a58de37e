// Admission of a request on its head (admission.hpp).

#include "admission.hpp"

#include <algorithm>

#include "sandbox_entry.hpp"
#include "server/codec/request_body.hpp"
#include "server/codec/request_target.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/inspector_routes.hpp"

namespace storefront::server {

namespace {

// Room for the multipart boundaries and part headers around an upload of upload_limit bytes.
constexpr std::size_t multipart_overhead = 16 * 1024;

std::size_t limit_of(body_policy policy, const body_limits& limits) {
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
std::size_t declared_length(const request_fields& fields) {
    const std::string_view value = fields.content_length;
    std::size_t n = 0;
    for (const char c : value) {
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

// The surfaces that read the login cookies as they read bearer tokens: /api/v1 and /graphql (the pet
// store keeps its own schemes).
bool takes_login_cookies(const route_table& table) {
    return table.prefix == "/api/v1" || table.prefix == "/graphql";
}

}  // namespace

boost::asio::awaitable<std::optional<response>> admit_request(
    const http::request_header<>& head, const routing_services& services, routed_request& routed
) {
    routed.fields = request_fields::of(head);
    // Beast has already refused control characters, spaces and NUL; what else a browser sends raw is
    // escaped here so the target is strict RFC 3986 as the client meant it. A bad '%' escape stays a 400.
    // An absolute-form target is read as its origin-form (RFC 9112 §3.2.2).
    std::string_view raw_target = origin_form_of(head.target());
    auto target = parse_request_target(raw_target);
    if (!target && std::any_of(raw_target.begin(), raw_target.end(), needs_uri_escape)) {
        routed.escaped_target = std::make_unique<const std::string>(escape_raw_uri_bytes(raw_target));
        raw_target = *routed.escaped_target;
        target = parse_request_target(raw_target);
    }
    const std::string_view method = head.method_string();
    if (!target) {
        co_return http_error(http::status::bad_request, "Malformed request target");
    }
    routed.target = raw_target;
    routed.path = target->path;
    if (routed.path.size() > 1 && routed.path.back() == '/') {
        routed.path.remove_suffix(1);  // "/api/v1/products/" is "/api/v1/products"
    }
    if (services.sandboxes != nullptr) {
        auto named = co_await name_sandbox(head, routed.fields, routed.path, *services.sandboxes);
        if (!named) {
            co_return std::move(named).error();
        }
        routed.sandbox_id = named->id;
        routed.path = named->path;
        if (!routed.sandbox_id.empty() && services.inspector != nullptr && inspector_path(routed.path)) {
            routed.inspector = true;
            const auto answer = [&] {
                const inspector_target to{
                    .sandbox = routed.sandbox_id, .path = routed.path, .query = target->query};
                return inspector_answer(head, to, *services.inspector, services.inspector_streams);
            };
            if (services.inspector->shared() && routed.path.starts_with("/requests")) {
                co_return co_await services.access.storage.run(answer);  // reads the database
            }
            co_return answer();
        }
    } else if (auto refused = refuse_sandbox(head, routed.fields, routed.path)) {
        co_return std::move(*refused);
    }
    routed.match = services.routes.match(head.method(), routed.path);
    switch (routed.match.outcome) {
        case route_match::kind::not_found:
            co_return route_not_found(method, routed.path);
        case route_match::kind::method_not_allowed:
            if (head.method() == http::verb::options) {
                co_return preflight(routed.match.allow);
            }
            co_return wrong_method(
                routed.match.compat, method, target->path, routed.path, routed.match.allow
            );
        case route_match::kind::found:
            break;
    }
    const route& r = *routed.match.matched;
    const bool writes = r.change == data_change::writes;
    // The data set, resolved once: the sandbox's view (read until its first write), or the shared view.
    const access_services* access = &services.access;
    if (!routed.sandbox_id.empty()) {
        if (auto refused = co_await enter_sandbox(head, routed, false, *services.sandboxes)) {
            co_return std::move(*refused);
        }
        access = &routed.sandbox->access();
    } else if (writes && services.sandboxes != nullptr &&
               services.sandboxes->mode() == core::sandbox_mode::required && routed.match.table != nullptr &&
               routed.match.table->prefix.starts_with("/api")) {
        co_return shared_view_read_only();
    }
    auto caller = co_await check_access(r.access, head, *access);
    if (!caller) {
        co_return std::move(caller).error();
    }
    routed.actor = std::move(*caller);
    if (state_changing(head.method()) && routed.match.table != nullptr &&
        takes_login_cookies(*routed.match.table) && cookie_authenticated(head)) {
        if (auto refused = refuse_cross_site(head, services.cors, routed.secure)) {
            co_return std::move(*refused);
        }
    }
    if (auto refused = refuse_websocket_origin(head, services.cors, routed.secure)) {
        co_return std::move(*refused);
    }
    if (writes && routed.sandbox) {
        // A sandbox gets stores of its own at its first write (only once the caller was admitted).
        if (auto refused = co_await enter_sandbox_for_write(head, routed, r.adds, *services.sandboxes)) {
            co_return std::move(*refused);
        }
    }
    routed.body_limit = limit_of(r.body, services.limits);
    if (declared_length(routed.fields) > routed.body_limit) {
        co_return http_error(http::status::payload_too_large, "Request body too large");
    }
    append_query_params(*target, routed.query);
    co_return std::nullopt;
}

}  // namespace storefront::server
