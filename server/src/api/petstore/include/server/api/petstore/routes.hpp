#pragma once
// The pet store surface's route table (/api/v3).

#include "server/api/petstore/pet_services.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

// The table, to mount with the services its handlers are called with: petstore_routes().mount(services).
[[nodiscard]] const surface_table<pet_services>& petstore_routes();

}  // namespace storefront::server
