#pragma once
// The /api/v1 catalogue's input rules: create and update bodies of products, categories and users, the
// product filters, path ids and URLs. Messages are the public service's (class-validator wording), which
// clients assert; every problem of a body is reported at once.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/input.hpp"
#include "core/model.hpp"
#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

// Bounds of our own beyond the public checks (catalogue.md).
inline constexpr std::size_t max_title_length = 200;
inline constexpr std::size_t max_description_length = 5000;
inline constexpr std::size_t max_name_length = 100;
inline constexpr std::size_t max_url_length = 2048;
inline constexpr std::size_t max_images = 10;
inline constexpr double max_price = 1'000'000'000;
inline constexpr std::int64_t max_stock = 1'000'000;  // units of one product (issue 42)
inline constexpr std::size_t min_password_length = 4;
inline constexpr std::size_t max_password_length = 128;

// "Validation failed (numeric string is expected)": the text for a path id that is not an integer.
inline constexpr std::string_view numeric_id_expected = "Validation failed (numeric string is expected)";

// A path id: an optional '-' and digits that fit in int64; nullopt otherwise ("abc", "1.5", 2^63).
[[nodiscard]] std::optional<std::int64_t> parse_path_id(std::string_view text) noexcept;

// http(s) URLs, scheme optional, as the public service accepts them: a host with a dot (or localhost, or
// an IPv4 address), optional port, any path without spaces or control characters.
[[nodiscard]] bool is_url(std::string_view text) noexcept;

[[nodiscard]] validated<product_draft> read_product_draft(const input_fields& fields);
[[nodiscard]] validated<product_patch> read_product_patch(const input_fields& fields);
[[nodiscard]] validated<category_draft> read_category_draft(const input_fields& fields);
[[nodiscard]] validated<category_patch> read_category_patch(const input_fields& fields);

// A registration as the client sent it; the handler hashes the password before the store sees it.
struct user_registration {
    std::string email;  // normalised
    std::string name;
    std::string password;
    std::string avatar;
    std::string role = "customer";
};
struct user_update {
    std::optional<std::string> email;  // normalised
    std::optional<std::string> name;
    std::optional<std::string> password;
    std::optional<std::string> avatar;
    std::optional<std::string> role;
};
[[nodiscard]] validated<user_registration> read_user_registration(const input_fields& fields);
[[nodiscard]] validated<user_update> read_user_update(const input_fields& fields);

// "Category 3 still has 2 products": why a category with products cannot be deleted.
[[nodiscard]] std::string category_in_use_message(std::int64_t id, std::size_t products);

// The filters of GET /products (title, price, price_min, price_max, categoryId, categorySlug); paging
// parameters and unknown names are left alone.
[[nodiscard]] validated<product_filter> parse_product_filter(const query_params& params);

// Whether `p` passes every filter that is set.
[[nodiscard]] bool matches(const product_filter& filter, const product& p) noexcept;

}  // namespace storefront::core
