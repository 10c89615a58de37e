// Every route of /api/v1 with its access rule, body policy and operation name: the one list that the
// router reads (and that the API documents and metrics will read).

#include "server/api/store/routes.hpp"

#include <array>

#include "catalogue_reads.hpp"
#include "catalogue_writes.hpp"
#include "server/api/store/handlers.hpp"

namespace storefront::server {

namespace {

using namespace route_rows;
using core::row_table;

// What each reusable answer reads (caches/replay_scope.hpp): a write to other rows keeps it. A product embeds
// its category; a category and a user embed nothing.
constexpr auto catalogue_list = until_changed({row_table::products, row_table::categories});
constexpr auto one_product = until_changed({row_table::products, row_table::categories}, row_table::products);
constexpr auto category_list = until_changed({row_table::categories});
constexpr auto one_category = until_changed({row_table::categories}, row_table::categories);
constexpr auto user_list = until_changed({row_table::users});
constexpr auto one_user = until_changed({row_table::users}, row_table::users);

// clang-format off
constexpr std::array routes{
    route{verb::get,     "/api/v1/products",                     &on<&handle_get_products>,                            open,            none,         "getProducts",              reads,  catalogue_list},
    route{verb::post,    "/api/v1/products",                     &on<&catalogue_writes::create_row<product_actions>>,  catalogue_write, json_or_form, "createProduct",            writes, per_request, row_kind::product,  "addProduct"},
    route{verb::get,     "/api/v1/products/{id}",                &on<&catalogue_reads::row_by_id<product_actions>>,    open,            none,         "getProduct",               reads,  one_product},
    route{verb::put,     "/api/v1/products/{id}",                &on<&catalogue_writes::update_row<product_actions>>,  catalogue_write, json_or_form, "updateProduct",            writes, per_request, row_kind::none,     "updateProduct"},
    route{verb::delete_, "/api/v1/products/{id}",                &on<&catalogue_writes::delete_row<product_actions>>,  catalogue_write, none,         "deleteProduct",            writes, per_request, row_kind::none,     "deleteProduct"},
    route{verb::get,     "/api/v1/products/{id}/related",        &on<&handle_get_related_products>,                    open,            none,         "getRelatedProducts",       reads,  catalogue_list},
    route{verb::get,     "/api/v1/products/slug/{slug}",         &on<&catalogue_reads::row_by_slug<product_actions>>,  open,            none,         "getProductBySlug",         reads,  catalogue_list},
    route{verb::get,     "/api/v1/products/slug/{slug}/related", &on<&handle_get_related_products_by_slug>,            open,            none,         "getRelatedProductsBySlug", reads,  catalogue_list},
    route{verb::get,     "/api/v1/categories",                   &on<&handle_get_categories>,                          open,            none,         "getCategories",            reads,  category_list},
    route{verb::post,    "/api/v1/categories",                   &on<&catalogue_writes::create_row<category_actions>>, catalogue_write, json_or_form, "createCategory",           writes, per_request, row_kind::category, "addCategory"},
    route{verb::get,     "/api/v1/categories/{id}",              &on<&catalogue_reads::row_by_id<category_actions>>,   open,            none,         "getCategory",              reads,  one_category},
    route{verb::put,     "/api/v1/categories/{id}",              &on<&catalogue_writes::update_row<category_actions>>, catalogue_write, json_or_form, "updateCategory",           writes, per_request, row_kind::none,     "updateCategory"},
    route{verb::delete_, "/api/v1/categories/{id}",              &on<&catalogue_writes::delete_row<category_actions>>, catalogue_write, none,         "deleteCategory",           writes, per_request, row_kind::none,     "deleteCategory"},
    route{verb::get,     "/api/v1/categories/{id}/products",     &on<&handle_get_category_products>,                   open,            none,         "getCategoryProducts",      reads,  catalogue_list},
    route{verb::get,     "/api/v1/categories/slug/{slug}",       &on<&catalogue_reads::row_by_slug<category_actions>>, open,            none,         "getCategoryBySlug",        reads,  category_list},
    route{verb::get,     "/api/v1/users",                        &on<&handle_get_users>,                               open,            none,         "getUsers",                 reads,  user_list},
    route{verb::post,    "/api/v1/users",                        &on<&handle_post_user>,                               optional_bearer, json_or_form, "createUser",               writes, per_request, row_kind::user,     "addUser"},
    route{verb::get,     "/api/v1/users/{id}",                   &on<&handle_get_user>,                                open,            none,         "getUser",                  reads,  one_user},
    route{verb::put,     "/api/v1/users/{id}",                   &on<&handle_put_user>,                                account_write,   json_or_form, "updateUser",               writes, per_request, row_kind::none,     "updateUser"},
    route{verb::delete_, "/api/v1/users/{id}",                   &on<&handle_delete_user>,                             account_write,   none,         "deleteUser",               writes, per_request, row_kind::none,     "deleteUser"},
    route{verb::post,    "/api/v1/users/is-available",           &on<&handle_post_users_is_available>,                 open,            json_or_form, "isAvailable",              reads},
    route{verb::post,    "/api/v1/files/upload",                 &on<&handle_post_file_upload>,                        catalogue_write, multipart,    "uploadFile",               writes},
    route{verb::get,     "/api/v1/files/{filename}",             &on<&handle_get_file>,                                open,            none,         "getFile",                  reads},
    route{verb::get,     "/api/v1/images/{kind}/{file}",         &on<&handle_get_image>,                               open,            none,         "getImage",                 reads},
    route{verb::post,    "/api/v1/sandboxes",                    &on<&handle_post_sandbox>,                            open,            none,         "createSandbox",            reads},
    route{verb::post,    "/api/v1/auth/login",                   &on<&handle_post_auth_login>,                         open,            json_or_form, "login",                    reads},
    route{verb::post,    "/api/v1/auth/refresh-token",           &on<&handle_post_auth_refresh_token>,                 open,            json_or_form, "refreshToken",             reads},
    route{verb::get,     "/api/v1/auth/profile",                 &on<&handle_get_auth_profile>,                        bearer,          none,         "getProfile",               reads},
    route{verb::post,    "/api/v1/auth/logout",                  &on<&handle_post_auth_logout>,                        bearer,          none,         "logout",                   reads},
    route{verb::get,     "/api/v1/locations",                    &on<&handle_get_locations>,                           open,            none,         "getLocations",             reads},
    route{verb::get,     "/api/v1/cart",                         &on<&handle_get_cart>,                                bearer,          none,         "getCart",                  reads},
    route{verb::delete_, "/api/v1/cart",                         &on<&handle_delete_cart>,                             bearer,          none,         "clearCart",                writes},
    route{verb::post,    "/api/v1/cart/items",                   &on<&handle_post_cart_item>,                          bearer,          json_or_form, "addCartItem",              writes, per_request, row_kind::cart,       "addToCart"},
    route{verb::patch,   "/api/v1/cart/items/{productId}",       &on<&handle_patch_cart_item>,                         bearer,          json_or_form, "updateCartItem",           writes, per_request, row_kind::none,       "updateCartItem"},
    route{verb::delete_, "/api/v1/cart/items/{productId}",       &on<&handle_delete_cart_item>,                        bearer,          none,         "removeCartItem",           writes, per_request, row_kind::none,       "removeFromCart"},
    route{verb::post,    "/api/v1/cart/coupon",                  &on<&handle_post_cart_coupon>,                        bearer,          json_or_form, "applyCoupon",              writes, per_request, row_kind::cart,       "applyCoupon"},
    route{verb::delete_, "/api/v1/cart/coupon",                  &on<&handle_delete_cart_coupon>,                      bearer,          none,         "removeCoupon",             writes},
    route{verb::get,     "/api/v1/orders",                       &on<&handle_get_orders>,                              bearer,          none,         "getOrders",                reads},
    route{verb::post,    "/api/v1/orders",                       &on<&handle_post_order>,                              bearer,          json_or_form, "createOrder",              writes, per_request, row_kind::shop_order, "checkout"},
    route{verb::get,     "/api/v1/orders/{id}",                  &on<&handle_get_order>,                               bearer,          none,         "getOrder",                 reads},
    route{verb::patch,   "/api/v1/orders/{id}",                  &on<&handle_patch_order>,                             bearer,          json_or_form, "updateOrderStatus",        writes},
    route{verb::post,    "/api/v1/orders/{id}/cancel",           &on<&handle_post_order_cancel>,                       bearer,          none,         "cancelOrder",              writes, per_request, row_kind::none,       "cancelOrder"},
    route{verb::get,     "/api/v1/orders/{id}/payments",         &on<&handle_get_order_payments>,                      bearer,          none,         "getOrderPayments",         reads},
    route{verb::post,    "/api/v1/orders/{id}/payments",         &on<&handle_post_order_payment>,                      bearer,          json_or_form, "createPayment",            writes, per_request, row_kind::payment,    "pay"},
    route{verb::post,    "/api/v1/payments/{id}/3ds",            &on<&handle_post_payment_3ds>,                        bearer,          json_or_form, "completeThreeDSecure",     writes},
    route{verb::get,     "/api/v1/events",                       &on<&handle_get_events>,                              optional_bearer, none,         "getEvents",                reads},
};
// clang-format on

}  // namespace

const surface_table<store_services>& store_routes() {
    return table_of<store_services, routes>("/api/v1", error_style::store);
}

}  // namespace storefront::server
