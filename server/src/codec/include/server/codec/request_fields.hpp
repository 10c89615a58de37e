#pragma once
// The request header fields read on every request, found in one pass over the parsed fields: Beast's
// lookups (head[field], head.find(name)) each walk its case-insensitive tree, and a request made nine of
// them (framing, sandbox, body limit, ETag and coding); about 800 instructions of a page's 26,000.

#include <cstdint>
#include <string_view>

#include <boost/beast/http/message.hpp>

namespace storefront::server {

namespace http = boost::beast::http;

// Views into the fields of the header they came from; valid while it lives. Each value is the first
// field of that name, as head[field] gives it; the counts are for the framing policy.
struct request_fields {
    std::string_view accept_encoding;
    std::string_view if_none_match;
    std::string_view content_length;
    std::string_view transfer_encoding;
    std::string_view expect;
    std::string_view sandbox;  // X-Sandbox
    std::uint32_t hosts = 0;
    std::uint32_t content_lengths = 0;
    std::uint32_t transfer_encodings = 0;
    std::uint32_t expects = 0;
    bool has_sandbox = false;

    [[nodiscard]] static request_fields of(const http::request_header<>& head);
};

}  // namespace storefront::server
