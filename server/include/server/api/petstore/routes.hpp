#pragma once
// The pet store surface's route table (/api/v3).

#include "server/api/petstore/pet_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& petstore_routes();

// The table with the services its handlers are called with, for the router.
[[nodiscard]] mounted_table mount_petstore_routes(pet_services& services);

}  // namespace storefront::server
