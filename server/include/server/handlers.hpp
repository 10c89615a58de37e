#pragma once
// Thin handlers: parse input, call core/storage, map the result. All share one signature.

#include <boost/asio/awaitable.hpp>

#include "server/app_services.hpp"
#include "server/request_context.hpp"
#include "server/response.hpp"

namespace storefront::server {

using handler_result = boost::asio::awaitable<response>;

handler_result handle_get_products(request_context& ctx, app_services& app);
handler_result handle_get_categories(request_context& ctx, app_services& app);
handler_result handle_get_users(request_context& ctx, app_services& app);
handler_result handle_post_users_is_available(request_context& ctx, app_services& app);
handler_result handle_post_auth_login(request_context& ctx, app_services& app);
handler_result handle_post_auth_refresh_token(request_context& ctx, app_services& app);
handler_result handle_get_auth_profile(request_context& ctx, app_services& app);
handler_result handle_get_locations(request_context& ctx, app_services& app);

}  // namespace storefront::server
