#pragma once
// The store surface's route table (/api/v1).

#include "server/routing/route.hpp"

namespace storefront::server {

[[nodiscard]] const route_table& store_routes();

}  // namespace storefront::server
