#pragma once
// The origin-form request target (RFC 9112 §3.2.1) split into path and query by hand: the hot path parses
// every request's target once, and Boost.URL's general parser cost more than the rest of routing. The
// accepted set and the decoded parameters are Boost.URL's (parse_origin_form, params()): a unit test
// compares both on a table and on random targets.

#include <optional>
#include <string_view>

#include "core/query.hpp"

namespace storefront::server {

struct request_target {
    std::string_view path;   // still percent-encoded, never empty (starts with '/')
    std::string_view query;  // without the '?', still percent-encoded
    bool has_query = false;
};

// `target` split into path and query, or nullopt when it is not a valid origin-form (not starting with
// '/', a character outside RFC 3986's path and query sets, a '%' not followed by two hex digits).
// Callers escape the raw bytes browsers send (escape_raw_uri_bytes) first.
[[nodiscard]] std::optional<request_target> parse_request_target(std::string_view target) noexcept;

// The origin-form inside an absolute-form target (RFC 9112 §3.2.2 says a server MUST accept one):
// "http://host:8080/p?q" -> "/p?q", "https://host" -> "/". Anything else, including an authority with
// userinfo (RFC 9110 §4.2.4 treats it as an error) or a path-less target with a query, comes back
// unchanged, so the origin-form parser decides (and refuses what is not origin-form).
[[nodiscard]] std::string_view origin_form_of(std::string_view target) noexcept;

// Appends the query's parameters to `out`, split on '&' and at the first '=', percent-decoded, '+' as a
// space. A query that is present but empty has one parameter with an empty name, as Boost.URL counts it.
void append_query_params(const request_target& target, core::query_params& out);

// `encoded` with %XX decoded; '+' becomes a space when `plus_as_space`. `encoded` must be valid (checked
// by parse_request_target).
[[nodiscard]] std::string decode_component(std::string_view encoded, bool plus_as_space);

}  // namespace storefront::server
