// Every route of /api/v1 with its access rule, body policy and operation name: the one list that the
// router reads (and that the API documents and metrics will read).

#include "server/api/store/routes.hpp"

#include <array>

#include "server/api/store/handlers.hpp"

namespace storefront::server {

namespace {

using enum access_rule;
using enum body_policy;
using http::verb;

// clang-format off
constexpr std::array routes{
    route{verb::get,  "/api/v1/products",           &handle_get_products,            open,   none,         "getProducts"},
    route{verb::get,  "/api/v1/categories",         &handle_get_categories,          open,   none,         "getCategories"},
    route{verb::get,  "/api/v1/users",              &handle_get_users,               open,   none,         "getUsers"},
    route{verb::post, "/api/v1/users/is-available", &handle_post_users_is_available, open,   json_or_form, "isAvailable"},
    route{verb::post, "/api/v1/auth/login",         &handle_post_auth_login,         open,   json_or_form, "login"},
    route{verb::post, "/api/v1/auth/refresh-token", &handle_post_auth_refresh_token, open,   json_or_form, "refreshToken"},
    route{verb::get,  "/api/v1/auth/profile",       &handle_get_auth_profile,        bearer, none,         "getProfile"},
    route{verb::get,  "/api/v1/locations",          &handle_get_locations,           open,   none,         "getLocations"},
};
// clang-format on

constexpr route_table table{"/api/v1", error_style::store, routes};

}  // namespace

const route_table& store_routes() {
    return table;
}

}  // namespace storefront::server
