#pragma once
// The store's value types, as the storage layer returns them and the server serialises them.

#include <cstdint>
#include <string>
#include <vector>

namespace storefront::core {

// Milliseconds since the Unix epoch (UTC); written as ISO-8601 with milliseconds.
using timestamp_ms = std::int64_t;

struct category {
    std::int64_t id = 0;
    std::string name;
    std::string slug;
    std::string image;
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
};

struct product {
    std::int64_t id = 0;
    std::string title;
    std::string slug;
    double price = 0;
    std::string description;
    category product_category;
    std::vector<std::string> images;
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
};

// A user as clients see it: no password material.
struct user {
    std::int64_t id = 0;
    std::string email;
    std::string name;
    std::string role;
    std::string avatar;
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
};

// A user with the Argon2id hash used to check a login; never serialised.
struct user_credentials {
    user profile;
    std::string password_hash;
};

struct location {
    std::int64_t id = 0;
    std::string name;
    std::string description;
    double latitude = 0;
    double longitude = 0;
};

}  // namespace storefront::core
