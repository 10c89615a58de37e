// The route table and request dispatch: every path the service answers is listed once, here.

#include "server/routing/router.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <string>

#include <boost/url/parse.hpp>

#include "server/routing/error_responses.hpp"
#include "server/api/petstore/handlers.hpp"
#include "server/api/store/handlers.hpp"
#include "server/ops/log.hpp"

namespace storefront::server {

namespace {

using handler_fn = handler_result (*)(request_context&, app_services&);

struct route {
    http::verb verb;
    std::string_view path;
    handler_fn handler;
};

// Sorted by path, then verb. A "{name}" segment captures one path segment into request_context::params.
constexpr std::array routes{
    route{http::verb::get, "/api/v1/auth/profile", &handle_get_auth_profile},
    route{http::verb::post, "/api/v1/auth/login", &handle_post_auth_login},
    route{http::verb::post, "/api/v1/auth/refresh-token", &handle_post_auth_refresh_token},
    route{http::verb::get, "/api/v1/categories", &handle_get_categories},
    route{http::verb::get, "/api/v1/locations", &handle_get_locations},
    route{http::verb::get, "/api/v1/products", &handle_get_products},
    route{http::verb::get, "/api/v1/users", &handle_get_users},
    route{http::verb::post, "/api/v1/users/is-available", &handle_post_users_is_available},
    route{http::verb::post, "/api/v3/oauth/token", &handle_post_pet_oauth_token},
    route{http::verb::post, "/api/v3/pet", &handle_post_pet},
    route{http::verb::put, "/api/v3/pet", &handle_put_pet},
    route{http::verb::get, "/api/v3/pet/findByStatus", &handle_get_pet_find_by_status},
    route{http::verb::get, "/api/v3/pet/findByTags", &handle_get_pet_find_by_tags},
    route{http::verb::delete_, "/api/v3/pet/{petId}", &handle_delete_pet},
    route{http::verb::get, "/api/v3/pet/{petId}", &handle_get_pet},
    route{http::verb::post, "/api/v3/pet/{petId}", &handle_post_pet_by_id},
    route{http::verb::get, "/api/v3/pet/{petId}/images/{imageId}", &handle_get_pet_image},
    route{http::verb::post, "/api/v3/pet/{petId}/uploadImage", &handle_post_pet_upload_image},
    route{http::verb::get, "/api/v3/store/inventory", &handle_get_store_inventory},
    route{http::verb::post, "/api/v3/store/order", &handle_post_store_order},
    route{http::verb::delete_, "/api/v3/store/order/{orderId}", &handle_delete_store_order},
    route{http::verb::get, "/api/v3/store/order/{orderId}", &handle_get_store_order},
    route{http::verb::post, "/api/v3/user", &handle_post_pet_user},
    route{http::verb::post, "/api/v3/user/createWithList", &handle_post_pet_user_create_with_list},
    route{http::verb::get, "/api/v3/user/login", &handle_get_pet_user_login},
    route{http::verb::get, "/api/v3/user/logout", &handle_get_pet_user_logout},
    route{http::verb::delete_, "/api/v3/user/{username}", &handle_delete_pet_user},
    route{http::verb::get, "/api/v3/user/{username}", &handle_get_pet_user},
    route{http::verb::put, "/api/v3/user/{username}", &handle_put_pet_user},
};

constexpr std::string_view cors_allow_headers = "Content-Type, Authorization, api_key";

// Whether `path` matches `pattern`, where a "{name}" segment matches any one non-empty segment; the
// captured segments are appended to `params` (only when matched).
bool match_path(std::string_view pattern, std::string_view path, path_params* params) {
    path_params captured;
    while (!pattern.empty() && !path.empty()) {
        const auto pattern_end = pattern.find('/', 1);
        const auto path_end = path.find('/', 1);
        const std::string_view pattern_segment = pattern.substr(0, pattern_end);
        const std::string_view path_segment = path.substr(0, path_end);
        if (pattern_segment.size() > 2 && pattern_segment[1] == '{') {
            if (path_segment.size() < 2) {
                return false;  // "{id}" needs a non-empty segment
            }
            captured.push_back({pattern_segment.substr(2, pattern_segment.size() - 3), path_segment.substr(1)}
            );
        } else if (pattern_segment != path_segment) {
            return false;
        }
        pattern.remove_prefix(pattern_segment.size());
        path.remove_prefix(path_segment.size());
    }
    if (!pattern.empty() || !path.empty()) {
        return false;
    }
    if (params != nullptr) {
        *params = std::move(captured);
    }
    return true;
}

const route* find_route(std::string_view path, http::verb verb, path_params& params) {
    const http::verb wanted = verb == http::verb::head ? http::verb::get : verb;
    // Literal routes first, so "/pet/findByStatus" is never taken for "/pet/{petId}".
    for (const bool literal : {true, false}) {
        for (const auto& r : routes) {
            const bool is_literal = r.path.find('{') == std::string_view::npos;
            if (is_literal == literal && r.verb == wanted && match_path(r.path, path, &params)) {
                return &r;
            }
        }
    }
    return nullptr;
}

bool path_known(std::string_view path) {
    return std::any_of(routes.begin(), routes.end(), [&](const route& r) {
        return match_path(r.path, path, nullptr);
    });
}

// "GET, HEAD, OPTIONS" style list of what `path` accepts.
std::string allowed_methods(std::string_view path) {
    std::string allow;
    for (const auto& r : routes) {
        if (!match_path(r.path, path, nullptr)) {
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
    path_params params;
    const route* matched = find_route(path, request.method(), params);
    if (matched == nullptr) {
        co_return method_not_allowed(method, path, allowed_methods(path));
    }
    request_context ctx{request, path, std::move(params), {}};
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
