#pragma once
// Handlers of the store surface (/api/v1): parse input, call core/storage, shape the answer.

#include <boost/asio/awaitable.hpp>

#include "server/app/app_services.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/response.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

handler_result handle_get_products(request_context& ctx, app_services& app);
handler_result handle_get_categories(request_context& ctx, app_services& app);
handler_result handle_get_users(request_context& ctx, app_services& app);
handler_result handle_post_users_is_available(request_context& ctx, app_services& app);
handler_result handle_post_auth_login(request_context& ctx, app_services& app);
handler_result handle_post_auth_refresh_token(request_context& ctx, app_services& app);
handler_result handle_get_auth_profile(request_context& ctx, app_services& app);
handler_result handle_get_locations(request_context& ctx, app_services& app);

}  // namespace storefront::server
