// The 200 answers of cacheable bytes (images, uploaded files, documentation files); their validation is
// routing's (finish_response), as for every other answer.

#include "server/codec/http_caching.hpp"

namespace storefront::server {

namespace {

response with_cache_policy(std::string_view media_type, std::string_view cache_control) {
    response r;
    r.content_type = std::string(media_type);
    r.with_header("Cache-Control", cache_control);
    return r;
}

}  // namespace

response cacheable_bytes(
    std::shared_ptr<const std::string> bytes, std::string_view media_type, std::string_view cache_control
) {
    response r = with_cache_policy(media_type, cache_control);
    r.shared_body = std::move(bytes);
    return r;
}

response cacheable_bytes(
    std::shared_ptr<const prepared_body> bytes, std::string_view media_type, std::string_view cache_control
) {
    response r = with_cache_policy(media_type, cache_control);
    r.prepared = std::move(bytes);
    return r;
}

}  // namespace storefront::server
