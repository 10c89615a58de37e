// Every route of /api/v3 with its access rule (as the petstore's OpenAPI document declares its security,
// and enforced), body policy and operation name (the petstore document's operationId).

#include "server/api/petstore/routes.hpp"

#include <array>

#include "server/api/petstore/handlers.hpp"

namespace storefront::server {

namespace {

using namespace route_rows;

// clang-format off
constexpr std::array routes{
    route{verb::post,    "/api/v3/oauth/token",                  &on<&handle_post_pet_oauth_token>,           open,        json_or_form, "issueToken",               reads},
    route{verb::post,    "/api/v3/pet",                          &on<&handle_post_pet>,                       pet_write,   json_or_form, "addPet",                   writes, per_request, row_kind::pet},
    route{verb::put,     "/api/v3/pet",                          &on<&handle_put_pet>,                        pet_write,   json_or_form, "updatePet",                writes},
    route{verb::get,     "/api/v3/pet/findByStatus",             &on<&handle_get_pet_find_by_status>,         open,        none,         "findPetsByStatus",         reads},
    route{verb::get,     "/api/v3/pet/findByTags",               &on<&handle_get_pet_find_by_tags>,           open,        none,         "findPetsByTags",           reads},
    route{verb::get,     "/api/v3/pet/{petId}",                  &on<&handle_get_pet>,                        pet_read,    none,         "getPetById",               reads},
    route{verb::post,    "/api/v3/pet/{petId}",                  &on<&handle_post_pet_by_id>,                 pet_write,   json_or_form, "updatePetWithForm",        writes},
    route{verb::delete_, "/api/v3/pet/{petId}",                  &on<&handle_delete_pet>,                     pet_write,   none,         "deletePet",                writes},
    route{verb::post,    "/api/v3/pet/{petId}/uploadImage",      &on<&handle_post_pet_upload_image>,          pet_write,   binary,       "uploadFile",               writes},
    route{verb::get,     "/api/v3/pet/{petId}/images/{imageId}", &on<&handle_get_pet_image>,                  open,        none,         "getPetImage",              reads},
    route{verb::get,     "/api/v3/store/inventory",              &on<&handle_get_store_inventory>,            pet_api_key, none,         "getInventory",             reads},
    route{verb::post,    "/api/v3/store/order",                  &on<&handle_post_store_order>,               open,        json_or_form, "placeOrder",               writes, per_request, row_kind::order},
    route{verb::get,     "/api/v3/store/order/{orderId}",        &on<&handle_get_store_order>,                open,        none,         "getOrderById",             reads},
    route{verb::delete_, "/api/v3/store/order/{orderId}",        &on<&handle_delete_store_order>,             open,        none,         "deleteOrder",              writes},
    route{verb::post,    "/api/v3/user",                         &on<&handle_post_pet_user>,                  open,        json_or_form, "createUser",               writes, per_request, row_kind::pet_user},
    route{verb::post,    "/api/v3/user/createWithList",          &on<&handle_post_pet_user_create_with_list>, open,        json_or_form, "createUsersWithListInput", writes, per_request, row_kind::pet_user},
    route{verb::get,     "/api/v3/user/login",                   &on<&handle_get_pet_user_login>,             open,        none,         "loginUser",                reads},
    route{verb::get,     "/api/v3/user/logout",                  &on<&handle_get_pet_user_logout>,            open,        none,         "logoutUser",               reads},
    route{verb::get,     "/api/v3/user/{username}",              &on<&handle_get_pet_user>,                   open,        none,         "getUserByName",            reads},
    route{verb::put,     "/api/v3/user/{username}",              &on<&handle_put_pet_user>,                   open,        json_or_form, "updateUser",               writes},
    route{verb::delete_, "/api/v3/user/{username}",              &on<&handle_delete_pet_user>,                open,        none,         "deleteUser",               writes},
};
// clang-format on

}  // namespace

const surface_table<pet_services>& petstore_routes() {
    return table_of<pet_services, routes>("/api/v3", error_style::petstore);
}

}  // namespace storefront::server
