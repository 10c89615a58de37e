#pragma once
// Strong entity tags for response bodies and the If-None-Match check (RFC 9110 §8.8.3, §13.1.2) that
// turns a repeated GET into a 304.

#include <string>
#include <string_view>

namespace storefront::server {

// "\"<16 lower-case hex digits>\"": the first 64 bits of the body's SHA-1. The same bytes give the same
// tag on every instance and every start; any change gives another with probability 1 - 2^-64.
[[nodiscard]] std::string strong_etag(std::string_view body);

// The same form of tag from `basis` instead of the body: bytes that determine the body entirely (what it
// was made of and how), for answers cheaper to name than to hash (a few picks from a large, fixed set).
[[nodiscard]] std::string derived_etag(std::string_view basis);

// Whether an If-None-Match value names `etag` (a quoted tag, W/ allowed): `*`, or a comma-separated list
// of entity tags, one equal to `etag` under weak comparison (W/ ignored on both sides). Spaces and tabs
// around tags and empty list elements are tolerated; anything else malformed (an unquoted tag, a lower-case
// w/, a space inside the quotes, `*` in a list) matches nothing, so the client gets the full answer.
[[nodiscard]] bool if_none_match_matches(std::string_view if_none_match, std::string_view etag) noexcept;

}  // namespace storefront::server
