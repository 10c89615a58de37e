// ETags and conditional GETs for the byte responses (images and uploaded files).

#include "server/codec/http_caching.hpp"

#include <cstdint>

namespace storefront::server {

std::string etag_of(std::string_view bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (int shift = 60; shift >= 0; shift -= 4) {
        out += hex[(hash >> shift) & 0xF];
    }
    out += '"';
    return out;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
    std::string_view rest = if_none_match;
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        std::string_view tag = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) {
            tag.remove_prefix(1);
        }
        while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) {
            tag.remove_suffix(1);
        }
        if (tag.substr(0, 2) == "W/") {
            tag.remove_prefix(2);
        }
        if (tag == "*" || tag == etag) {
            return true;
        }
    }
    return false;
}

response cacheable_bytes(
    std::shared_ptr<const std::string> bytes,
    std::string_view media_type,
    std::string_view etag,
    std::string_view cache_control,
    std::string_view if_none_match
) {
    response r;
    r.content_type = std::string(media_type);
    r.with_header("ETag", etag).with_header("Cache-Control", cache_control);
    if (!if_none_match.empty() && etag_matches(if_none_match, etag)) {
        r.status = http::status::not_modified;
        return r;
    }
    r.shared_body = std::move(bytes);
    return r;
}

}  // namespace storefront::server
