#pragma once
// Pure rules of the pet store surface: enum names as the petstore schema spells them, the findByStatus and
// findByTags filters, RFC 3339 date-times, usernames and the media type of uploaded images.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pet_model.hpp"
#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

// Bounds of our own on pet store bodies (the public petstore has none). Ids above 2^53 - 1 lose precision
// in JavaScript clients; refusing them also keeps id assignment far from overflow.
inline constexpr std::int64_t max_pet_id = 9'007'199'254'740'991;
inline constexpr std::size_t max_pet_text = 1024;  // any single string field
inline constexpr std::size_t max_pet_items = 100;  // photoUrls and tags entries
inline constexpr std::int64_t max_order_quantity = 1'000'000;

[[nodiscard]] std::string_view to_string(pet_status status) noexcept;
[[nodiscard]] std::string_view to_string(order_status status) noexcept;

// Exact, case-sensitive names ("available", "pending", "sold"); nullopt otherwise.
[[nodiscard]] std::optional<pet_status> parse_pet_status(std::string_view text) noexcept;
// Exact names ("placed", "approved", "delivered"); nullopt otherwise.
[[nodiscard]] std::optional<order_status> parse_order_status(std::string_view text) noexcept;

// The statuses asked for by every `status` parameter, each a comma-separated list; none given means
// available. Duplicates are dropped. Error: one message naming the first value that is not a status, in
// the petstore's wording ("Input error: query parameter `status` value `x` is not in the allowable ...").
[[nodiscard]] validated<std::vector<pet_status>> parse_status_filter(const query_params& params);

// The tag names asked for by every `tags` parameter, each a comma-separated list (empty items ignored).
// Error: "tags is required" when no tag name is given.
[[nodiscard]] validated<std::vector<std::string>> parse_tag_filter(const query_params& params);

// An RFC 3339 date-time ("2026-01-02T03:04:05Z", optional fraction, "Z" or "+hh:mm"/"-hh:mm") as
// milliseconds since the epoch (UTC); nullopt for anything else, including impossible dates.
[[nodiscard]] std::optional<timestamp_ms> parse_date_time(std::string_view text) noexcept;

// 1-64 characters, each a letter, digit or one of "._-@+": a username fits in a URL path unescaped.
[[nodiscard]] bool valid_username(std::string_view text) noexcept;

// The media type of an uploaded image from its first bytes: image/png, image/jpeg, image/gif,
// image/webp, else application/octet-stream.
[[nodiscard]] std::string_view sniff_image_type(std::string_view bytes) noexcept;

// Whether a pet image upload may declare `media_type` (lower-case, no parameters): none,
// application/octet-stream, or one of the image types above.
[[nodiscard]] bool pet_upload_type_allowed(std::string_view media_type) noexcept;

// The type an uploaded pet image is served with: a declared image type wins; none or an octet-stream is
// served as what its bytes are (sniff_image_type).
[[nodiscard]] std::string pet_image_media_type(std::string_view declared, std::string_view bytes);

}  // namespace storefront::core
