#pragma once
// Who is calling: the caller of a request as the route's access rule established it.

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::core {

// Anonymous (no user id) or a user with a role.
struct actor {
    std::optional<std::int64_t> user_id;
    std::string role;  // empty when anonymous
};

}  // namespace storefront::core
