// The route table and request dispatch: every path the service answers is listed once, here.

#include "server/router.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <string>

#include <boost/url/parse.hpp>

#include "server/error_responses.hpp"
#include "server/handlers.hpp"
#include "server/log.hpp"

namespace storefront::server {

namespace {

using handler_fn = handler_result (*)(request_context&, app_services&);

struct route {
    http::verb verb;
    std::string_view path;
    handler_fn handler;
};

// Sorted by path, then verb.
constexpr std::array routes{
    route{http::verb::get, "/api/v1/auth/profile", &handle_get_auth_profile},
    route{http::verb::post, "/api/v1/auth/login", &handle_post_auth_login},
    route{http::verb::post, "/api/v1/auth/refresh-token", &handle_post_auth_refresh_token},
    route{http::verb::get, "/api/v1/categories", &handle_get_categories},
    route{http::verb::get, "/api/v1/locations", &handle_get_locations},
    route{http::verb::get, "/api/v1/products", &handle_get_products},
    route{http::verb::get, "/api/v1/users", &handle_get_users},
    route{http::verb::post, "/api/v1/users/is-available", &handle_post_users_is_available},
};

constexpr std::string_view cors_allow_headers = "Content-Type, Authorization, api_key";

// "GET, HEAD, OPTIONS" style list of what `path` accepts.
std::string allowed_methods(std::string_view path) {
    std::string allow;
    for (const auto& r : routes) {
        if (r.path != path) {
            continue;
        }
        allow += http::to_string(r.verb);
        allow += ", ";
        if (r.verb == http::verb::get) {
            allow += "HEAD, ";
        }
    }
    allow += "OPTIONS";
    return allow;
}

const route* find_route(std::string_view path, http::verb verb) {
    const http::verb wanted = verb == http::verb::head ? http::verb::get : verb;
    for (const auto& r : routes) {
        if (r.path == path && r.verb == wanted) {
            return &r;
        }
    }
    return nullptr;
}

bool path_known(std::string_view path) {
    return std::any_of(routes.begin(), routes.end(), [&](const route& r) { return r.path == path; });
}

response preflight(std::string_view allow) {
    response r;
    r.status = http::status::no_content;
    r.with_header("Allow", allow)
        .with_header("Access-Control-Allow-Methods", allow)
        .with_header("Access-Control-Allow-Headers", cors_allow_headers)
        .with_header("Access-Control-Max-Age", "86400");
    return r;
}

}  // namespace

boost::asio::awaitable<response> dispatch(const http_request& request, app_services& app) {
    const auto target = boost::urls::parse_origin_form(request.target());
    const std::string_view method = request.method_string();
    if (!target) {
        co_return http_error(http::status::bad_request, "Malformed request target");
    }
    std::string_view path = target->encoded_path();
    if (path.size() > 1 && path.back() == '/') {
        path.remove_suffix(1);  // "/api/v1/products/" is "/api/v1/products"
    }
    if (!path_known(path)) {
        co_return route_not_found(method, path);
    }
    if (request.method() == http::verb::options) {
        co_return preflight(allowed_methods(path));
    }
    const route* matched = find_route(path, request.method());
    if (matched == nullptr) {
        co_return method_not_allowed(method, path, allowed_methods(path));
    }
    request_context ctx{request, path, {}};
    for (const auto param : target->params()) {
        ctx.query.push_back({std::string(param.key), std::string(param.value)});
    }
    try {
        co_return co_await matched->handler(ctx, app);
    } catch (const std::exception& e) {
        log_event("error", "handler_exception", {field("path", path), field("what", e.what())});
    }
    co_return internal_error();
}

}  // namespace storefront::server
