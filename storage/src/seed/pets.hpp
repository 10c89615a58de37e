#pragma once
// Seed data of the public petstore v3 (behaviour.md "Pet store surface"): 10 pets, 3 orders, 10 users.

#include <string_view>
#include <vector>

#include "core/pet_model.hpp"

namespace storefront::storage::detail {

// The password every seed user (user1..user10) has, as the public petstore stores it.
inline constexpr std::string_view seed_pet_user_password = "XXXXXXXXXXX";

[[nodiscard]] std::vector<core::pet> seed_pets();
[[nodiscard]] std::vector<core::pet_order> seed_orders();
// Users 1..10; one Argon2id hash of seed_pet_user_password is computed once per process and shared (they
// share the password).
[[nodiscard]] std::vector<core::pet_user_credentials> seed_pet_users();

}  // namespace storefront::storage::detail
