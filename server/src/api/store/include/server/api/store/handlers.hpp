#pragma once
// Handlers of the store surface (/api/v1): parse input, call core/storage, shape the answer.

#include <boost/asio/awaitable.hpp>

#include "server/api/store/store_services.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// Products and categories: lists (handlers_products.cpp, handlers_categories.cpp); GET by id and by slug,
// POST, PUT and DELETE of one row are routed straight to the templates serving both (catalogue_reads.hpp,
// catalogue_writes.hpp: a new category name gives a new slug; 409 deleting a category products belong to).
handler_result handle_get_products(request_context& ctx, store_services& app);
handler_result handle_get_related_products(request_context& ctx, store_services& app);
handler_result handle_get_related_products_by_slug(request_context& ctx, store_services& app);
handler_result handle_get_categories(request_context& ctx, store_services& app);
handler_result handle_get_category_products(request_context& ctx, store_services& app);

// Users (handlers_users.cpp)
handler_result handle_get_users(request_context& ctx, store_services& app);
handler_result handle_get_user(request_context& ctx, store_services& app);
handler_result handle_post_user(request_context& ctx, store_services& app);
handler_result handle_put_user(request_context& ctx, store_services& app);
handler_result handle_delete_user(request_context& ctx, store_services& app);
handler_result handle_post_users_is_available(request_context& ctx, store_services& app);

// Uploads, uploaded files and drawn images (handlers_files.cpp)
handler_result handle_post_file_upload(request_context& ctx, store_services& app);
handler_result handle_get_file(request_context& ctx, store_services& app);
handler_result handle_get_image(request_context& ctx, store_services& app);

// Auth (handlers_auth.cpp) and locations (handlers_locations.cpp)
handler_result handle_post_auth_login(request_context& ctx, store_services& app);
handler_result handle_post_auth_refresh_token(request_context& ctx, store_services& app);
handler_result handle_get_auth_profile(request_context& ctx, store_services& app);
handler_result handle_post_auth_logout(request_context& ctx, store_services& app);
handler_result handle_get_locations(request_context& ctx, store_services& app);

// The shop (issue 42): the caller's cart (handlers_cart.cpp), orders (handlers_orders.cpp) and payments
// (handlers_payments.cpp)
handler_result handle_get_cart(request_context& ctx, store_services& app);
handler_result handle_delete_cart(request_context& ctx, store_services& app);
handler_result handle_post_cart_item(request_context& ctx, store_services& app);
handler_result handle_patch_cart_item(request_context& ctx, store_services& app);
handler_result handle_delete_cart_item(request_context& ctx, store_services& app);
handler_result handle_post_cart_coupon(request_context& ctx, store_services& app);
handler_result handle_delete_cart_coupon(request_context& ctx, store_services& app);
handler_result handle_get_orders(request_context& ctx, store_services& app);
handler_result handle_post_order(request_context& ctx, store_services& app);
handler_result handle_get_order(request_context& ctx, store_services& app);
handler_result handle_patch_order(request_context& ctx, store_services& app);
handler_result handle_post_order_cancel(request_context& ctx, store_services& app);
handler_result handle_get_order_payments(request_context& ctx, store_services& app);
handler_result handle_post_order_payment(request_context& ctx, store_services& app);
handler_result handle_post_payment_3ds(request_context& ctx, store_services& app);

// Sandboxes (handlers_sandboxes.cpp)
handler_result handle_post_sandbox(request_context& ctx, store_services& app);

// Change feed (handlers_events.cpp)
handler_result handle_get_events(request_context& ctx, store_services& app);

}  // namespace storefront::server
