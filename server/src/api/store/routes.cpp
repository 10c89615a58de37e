// Every route of /api/v1 with its access rule, body policy and operation name: the one list that the
// router reads (and that the API documents and metrics will read).

#include "server/api/store/routes.hpp"

#include <array>

#include "server/api/store/handlers.hpp"

namespace storefront::server {

namespace {

using namespace route_rows;

// clang-format off
constexpr std::array routes{
    route{verb::get,    "/api/v1/products",                      &on<&handle_get_products>,                 open,            none,         "getProducts",              until_data_changes},
    route{verb::post,   "/api/v1/products",                      &on<&handle_post_product>,                 catalogue_write, json_or_form, "createProduct"},
    route{verb::get,    "/api/v1/products/{id}",                 &on<&handle_get_product>,                  open,            none,         "getProduct",               until_data_changes},
    route{verb::put,    "/api/v1/products/{id}",                 &on<&handle_put_product>,                  catalogue_write, json_or_form, "updateProduct"},
    route{verb::delete_,"/api/v1/products/{id}",                 &on<&handle_delete_product>,               catalogue_write, none,         "deleteProduct"},
    route{verb::get,    "/api/v1/products/{id}/related",         &on<&handle_get_related_products>,         open,            none,         "getRelatedProducts",       until_data_changes},
    route{verb::get,    "/api/v1/products/slug/{slug}",          &on<&handle_get_product_by_slug>,          open,            none,         "getProductBySlug",         until_data_changes},
    route{verb::get,    "/api/v1/products/slug/{slug}/related",  &on<&handle_get_related_products_by_slug>, open,            none,         "getRelatedProductsBySlug", until_data_changes},
    route{verb::get,    "/api/v1/categories",                    &on<&handle_get_categories>,               open,            none,         "getCategories",            until_data_changes},
    route{verb::post,   "/api/v1/categories",                    &on<&handle_post_category>,                catalogue_write, json_or_form, "createCategory"},
    route{verb::get,    "/api/v1/categories/{id}",               &on<&handle_get_category>,                 open,            none,         "getCategory",              until_data_changes},
    route{verb::put,    "/api/v1/categories/{id}",               &on<&handle_put_category>,                 catalogue_write, json_or_form, "updateCategory"},
    route{verb::delete_,"/api/v1/categories/{id}",               &on<&handle_delete_category>,              catalogue_write, none,         "deleteCategory"},
    route{verb::get,    "/api/v1/categories/{id}/products",      &on<&handle_get_category_products>,        open,            none,         "getCategoryProducts",      until_data_changes},
    route{verb::get,    "/api/v1/categories/slug/{slug}",        &on<&handle_get_category_by_slug>,         open,            none,         "getCategoryBySlug",        until_data_changes},
    route{verb::get,    "/api/v1/users",                         &on<&handle_get_users>,                    open,            none,         "getUsers",                 until_data_changes},
    route{verb::post,   "/api/v1/users",                         &on<&handle_post_user>,                    optional_bearer, json_or_form, "createUser"},
    route{verb::get,    "/api/v1/users/{id}",                    &on<&handle_get_user>,                     open,            none,         "getUser",                  until_data_changes},
    route{verb::put,    "/api/v1/users/{id}",                    &on<&handle_put_user>,                     account_write,   json_or_form, "updateUser"},
    route{verb::delete_,"/api/v1/users/{id}",                    &on<&handle_delete_user>,                  account_write,   none,         "deleteUser"},
    route{verb::post,   "/api/v1/users/is-available",            &on<&handle_post_users_is_available>,      open,            json_or_form, "isAvailable"},
    route{verb::post,   "/api/v1/files/upload",                  &on<&handle_post_file_upload>,             catalogue_write, multipart,    "uploadFile"},
    route{verb::get,    "/api/v1/files/{filename}",              &on<&handle_get_file>,                     open,            none,         "getFile"},
    route{verb::get,    "/api/v1/images/{kind}/{file}",          &on<&handle_get_image>,                    open,            none,         "getImage"},
    route{verb::post,   "/api/v1/sandboxes",                     &on<&handle_post_sandbox>,                 open,            none,         "createSandbox"},
    route{verb::post,   "/api/v1/auth/login",                    &on<&handle_post_auth_login>,              open,            json_or_form, "login"},
    route{verb::post,   "/api/v1/auth/refresh-token",            &on<&handle_post_auth_refresh_token>,      open,            json_or_form, "refreshToken"},
    route{verb::get,    "/api/v1/auth/profile",                  &on<&handle_get_auth_profile>,             bearer,          none,         "getProfile"},
    route{verb::post,   "/api/v1/auth/logout",                   &on<&handle_post_auth_logout>,             bearer,          none,         "logout"},
    route{verb::get,    "/api/v1/locations",                     &on<&handle_get_locations>,                open,            none,         "getLocations"},
};
// clang-format on

}  // namespace

const surface_table<store_services>& store_routes() {
    return table_of<store_services, routes>("/api/v1", error_style::store);
}

}  // namespace storefront::server
