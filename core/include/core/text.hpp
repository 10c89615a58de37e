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
