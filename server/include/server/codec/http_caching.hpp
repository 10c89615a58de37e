#pragma once
// Validators for cacheable bytes (images, uploads): a strong ETag from the content, If-None-Match
// matching (RFC 9110 §13.1.2, weak comparison), and the 200-or-304 answer built from them.

#include <memory>
#include <string>
#include <string_view>

#include "server/codec/response.hpp"

namespace storefront::server {

// "\"<16 hex digits>\"": FNV-1a 64 of the bytes, the same on every instance and every start.
[[nodiscard]] std::string etag_of(std::string_view bytes);

// Whether an If-None-Match value ("*", or a list of possibly weak tags) matches `etag`.
[[nodiscard]] bool etag_matches(std::string_view if_none_match, std::string_view etag);

// 200 with the shared bytes, or 304 without them when `if_none_match` already names them; both carry the
// ETag and `cache_control`.
[[nodiscard]] response cacheable_bytes(
    std::shared_ptr<const std::string> bytes,
    std::string_view media_type,
    std::string_view etag,
    std::string_view cache_control,
    std::string_view if_none_match
);

}  // namespace storefront::server
