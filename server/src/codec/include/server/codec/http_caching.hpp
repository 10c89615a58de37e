#pragma once
// The 200 answer of cacheable bytes (images, uploads, documentation files): media type and Cache-Control.
// Routing's finaliser (routing/finish_response.hpp) gives it its ETag and answers If-None-Match with 304.

#include <memory>
#include <string>
#include <string_view>

#include "server/codec/response.hpp"

namespace storefront::server {

// 200 with the shared bytes, of `media_type`, with `cache_control`.
[[nodiscard]] response cacheable_bytes(
    std::shared_ptr<const std::string> bytes, std::string_view media_type, std::string_view cache_control
);

// The same for prepared bytes: their ETag (and any compressed form) is computed once, not per request.
[[nodiscard]] response cacheable_bytes(
    std::shared_ptr<const prepared_body> bytes, std::string_view media_type, std::string_view cache_control
);

}  // namespace storefront::server
