#pragma once
// Handlers of the pet store surface (/api/v3): parse input, call core/storage, shape the answer.

#include <boost/asio/awaitable.hpp>

#include "server/api/petstore/pet_services.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

handler_result handle_post_pet(request_context& ctx, pet_services& app);
handler_result handle_put_pet(request_context& ctx, pet_services& app);
handler_result handle_get_pet_find_by_status(request_context& ctx, pet_services& app);
handler_result handle_get_pet_find_by_tags(request_context& ctx, pet_services& app);
handler_result handle_get_pet(request_context& ctx, pet_services& app);
handler_result handle_post_pet_by_id(request_context& ctx, pet_services& app);
handler_result handle_delete_pet(request_context& ctx, pet_services& app);
handler_result handle_post_pet_upload_image(request_context& ctx, pet_services& app);
handler_result handle_get_pet_image(request_context& ctx, pet_services& app);
handler_result handle_get_store_inventory(request_context& ctx, pet_services& app);
handler_result handle_post_store_order(request_context& ctx, pet_services& app);
handler_result handle_get_store_order(request_context& ctx, pet_services& app);
handler_result handle_delete_store_order(request_context& ctx, pet_services& app);
handler_result handle_post_pet_user(request_context& ctx, pet_services& app);
handler_result handle_post_pet_user_create_with_list(request_context& ctx, pet_services& app);
handler_result handle_get_pet_user_login(request_context& ctx, pet_services& app);
handler_result handle_get_pet_user_logout(request_context& ctx, pet_services& app);
handler_result handle_get_pet_user(request_context& ctx, pet_services& app);
handler_result handle_put_pet_user(request_context& ctx, pet_services& app);
handler_result handle_delete_pet_user(request_context& ctx, pet_services& app);
handler_result handle_post_pet_oauth_token(request_context& ctx, pet_services& app);

}  // namespace storefront::server
