#pragma once
// The store's value types, as the storage layer returns them and the server serialises them.

#include <cstdint>
#include <optional>
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
    bool seed = false;  // part of the demo data: read-only whatever the write policy (never serialised)
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
    bool seed = false;
    std::int64_t stock = 0;  // units left to sell (>= 0); checkout takes, cancel and expiry give back
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
    bool seed = false;
};

// A user with the Argon2id hash used to check a login; never serialised.
struct user_credentials {
    user profile;
    std::string password_hash;
};

// What a client asks to create or change. Drafts carry every field; patches only those given. The store
// assigns ids, slugs and timestamps.
struct product_draft {
    std::string title;
    double price = 0;
    std::string description;
    std::int64_t category_id = 0;
    std::vector<std::string> images;
    std::int64_t stock = 0;  // >= 0
};

struct product_patch {
    std::optional<std::string> title;
    std::optional<double> price;
    std::optional<std::string> description;
    std::optional<std::int64_t> category_id;
    std::optional<std::vector<std::string>> images;
    std::optional<std::int64_t> stock;  // >= 0
};

struct category_draft {
    std::string name;
    std::string image;
};

struct category_patch {
    std::optional<std::string> name;
    std::optional<std::string> image;
};

// A new user as the store keeps it: the password already an Argon2id hash.
struct user_draft {
    std::string email;  // normalised (core::normalize_email)
    std::string name;
    std::string password_hash;
    std::string avatar;
    std::string role;
};

struct user_patch {
    std::optional<std::string> email;  // normalised
    std::optional<std::string> name;
    std::optional<std::string> password_hash;
    std::optional<std::string> avatar;
    std::optional<std::string> role;
};

// GET /products filters; every given one must hold.
struct product_filter {
    std::optional<std::string> title;  // case-insensitive literal substring (ASCII case folding)
    std::optional<double> price;       // exact
    std::optional<double> price_min;   // inclusive bounds, each optional
    std::optional<double> price_max;
    std::optional<std::int64_t> category_id;
    std::optional<std::string> category_slug;

    [[nodiscard]] bool empty() const noexcept {
        return !title && !price && !price_min && !price_max && !category_id && !category_slug;
    }
};

struct location {
    std::int64_t id = 0;
    std::string name;
    std::string description;
    double latitude = 0;
    double longitude = 0;
};

}  // namespace storefront::core
