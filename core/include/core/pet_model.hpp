#pragma once
// The pet store's value types (/api/v3, the Swagger petstore schemas), as storage returns them and the
// server serialises them. Optional members are omitted from JSON when absent.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace storefront::core {

enum class pet_status { available, pending, sold };
enum class order_status { placed, approved, delivered };

struct pet_category {
    std::optional<std::int64_t> id;
    std::optional<std::string> name;
};

struct pet_tag {
    std::optional<std::int64_t> id;
    std::optional<std::string> name;
};

struct pet {
    std::int64_t id = 0;  // 0 = not assigned yet (the store picks the next free id)
    std::optional<pet_category> category;
    std::string name;
    std::vector<std::string> photo_urls;
    std::vector<pet_tag> tags;
    std::optional<pet_status> status;
};

struct pet_order {
    std::int64_t id = 0;  // 0 = not assigned yet
    std::int64_t pet_id = 0;
    std::int32_t quantity = 0;
    std::optional<timestamp_ms> ship_date;
    order_status status = order_status::placed;
    bool complete = false;
};

// A pet-store user as clients see it: no password material.
struct pet_user {
    std::int64_t id = 0;  // 0 = not assigned yet
    std::string username;
    std::optional<std::string> first_name;
    std::optional<std::string> last_name;
    std::optional<std::string> email;
    std::optional<std::string> phone;
    std::optional<std::int32_t> user_status;
};

// A pet-store user with the Argon2id hash of its password (empty: the user cannot log in); never serialised.
struct pet_user_credentials {
    pet_user profile;
    std::string password_hash;
};

// An uploaded pet image: its bytes and the media type it is served with.
struct pet_image {
    std::string media_type;
    std::string bytes;
};

}  // namespace storefront::core
