#pragma once
// Small helpers for HTTP header values, shared by the framing checks and the proxy headers.

#include <string_view>

namespace storefront::server {

// A header value without the optional whitespace (spaces and tabs, RFC 9110 OWS) around it.
[[nodiscard]] constexpr std::string_view trim_ows(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

}  // namespace storefront::server
