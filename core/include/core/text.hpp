#pragma once
// Small text helpers for protocol tokens (header values, media types, schemes): ASCII only, locale-free.

#include <string>
#include <string_view>

namespace storefront::core {

[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] inline std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = ascii_lower(c);
    }
    return out;
}

// Whether `a` and `b` are the same text but for ASCII case.
[[nodiscard]] constexpr bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ascii_lower(a[i]) != ascii_lower(b[i])) {
            return false;
        }
    }
    return true;
}

[[nodiscard]] constexpr bool is_ascii_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

// RFC 9110 tchar (the characters of a token; the same set as RFC 2616's token, which cookies use).
[[nodiscard]] constexpr bool is_tchar(char c) noexcept {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_ascii_digit(c)) {
        return true;
    }
    constexpr std::string_view others = "!#$%&'*+-.^_`|~";
    return others.find(c) != std::string_view::npos;
}

// The value of hexadecimal digit `c` (either case), or -1 when it is not one.
[[nodiscard]] constexpr int hex_digit_value(char c) noexcept {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

// `text` without leading and trailing spaces and tabs (HTTP's optional whitespace).
[[nodiscard]] constexpr std::string_view trim_spaces(std::string_view text) noexcept {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

}  // namespace storefront::core
