#pragma once
// The pet store surface's route table (/api/v3).

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& petstore_routes();

}  // namespace storefront::server
