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
    route{verb::post,    "/api/v3/oauth/token",                  &on<&handle_post_pet_oauth_token>,           open,        json_or_form, "issueToken"},
    route{verb::post,    "/api/v3/pet",                          &on<&handle_post_pet>,                       pet_write,   json_or_form, "addPet"},
    route{verb::put,     "/api/v3/pet",                          &on<&handle_put_pet>,                        pet_write,   json_or_form, "updatePet"},
    route{verb::get,     "/api/v3/pet/findByStatus",             &on<&handle_get_pet_find_by_status>,         open,        none,         "findPetsByStatus"},
    route{verb::get,     "/api/v3/pet/findByTags",               &on<&handle_get_pet_find_by_tags>,           open,        none,         "findPetsByTags"},
    route{verb::get,     "/api/v3/pet/{petId}",                  &on<&handle_get_pet>,                        pet_read,    none,         "getPetById"},
    route{verb::post,    "/api/v3/pet/{petId}",                  &on<&handle_post_pet_by_id>,                 pet_write,   json_or_form, "updatePetWithForm"},
    route{verb::delete_, "/api/v3/pet/{petId}",                  &on<&handle_delete_pet>,                     pet_write,   none,         "deletePet"},
    route{verb::post,    "/api/v3/pet/{petId}/uploadImage",      &on<&handle_post_pet_upload_image>,          pet_write,   binary,       "uploadFile"},
    route{verb::get,     "/api/v3/pet/{petId}/images/{imageId}", &on<&handle_get_pet_image>,                  open,        none,         "getPetImage"},
    route{verb::get,     "/api/v3/store/inventory",              &on<&handle_get_store_inventory>,            pet_api_key, none,         "getInventory"},
    route{verb::post,    "/api/v3/store/order",                  &on<&handle_post_store_order>,               open,        json_or_form, "placeOrder"},
    route{verb::get,     "/api/v3/store/order/{orderId}",        &on<&handle_get_store_order>,                open,        none,         "getOrderById"},
    route{verb::delete_, "/api/v3/store/order/{orderId}",        &on<&handle_delete_store_order>,             open,        none,         "deleteOrder"},
    route{verb::post,    "/api/v3/user",                         &on<&handle_post_pet_user>,                  open,        json_or_form, "createUser"},
    route{verb::post,    "/api/v3/user/createWithList",          &on<&handle_post_pet_user_create_with_list>, open,        json_or_form, "createUsersWithListInput"},
    route{verb::get,     "/api/v3/user/login",                   &on<&handle_get_pet_user_login>,             open,        none,         "loginUser"},
    route{verb::get,     "/api/v3/user/logout",                  &on<&handle_get_pet_user_logout>,            open,        none,         "logoutUser"},
    route{verb::get,     "/api/v3/user/{username}",              &on<&handle_get_pet_user>,                   open,        none,         "getUserByName"},
    route{verb::put,     "/api/v3/user/{username}",              &on<&handle_put_pet_user>,                   open,        json_or_form, "updateUser"},
    route{verb::delete_, "/api/v3/user/{username}",              &on<&handle_delete_pet_user>,                open,        none,         "deleteUser"},
};
// clang-format on

}  // namespace

const surface_table<pet_services>& petstore_routes() {
    return table_of<pet_services, routes>("/api/v3", error_style::petstore);
}

}  // namespace storefront::server
