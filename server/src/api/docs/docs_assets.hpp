#pragma once
// The embedded documentation files as ready answers: shared bytes, media type, ETag and cache policy,
// built once on first use and never changed.

#include <memory>
#include <string>
#include <string_view>

namespace storefront::server {

struct docs_asset {
    std::shared_ptr<const std::string> bytes;
    std::string_view media_type;
    std::string etag;
    std::string_view cache_control;
};

// The asset named `name` ("swagger-ui.css", "store-v1.json"), or nullptr.
[[nodiscard]] const docs_asset* find_docs_asset(std::string_view name);

}  // namespace storefront::server
