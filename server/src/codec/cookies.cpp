// A strict reading of the Cookie header (RFC 6265 section 4.2.1's cookie-string): pairs separated by ';'
// and optional spaces. Pairs that do not follow the grammar are skipped one by one.

#include "server/codec/cookies.hpp"

#include <charconv>

#include "core/text.hpp"

namespace storefront::server {

namespace {

// cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E
bool is_cookie_octet(char c) noexcept {
    const auto b = static_cast<unsigned char>(c);
    return b == 0x21 || (b >= 0x23 && b <= 0x2b) || (b >= 0x2d && b <= 0x3a) || (b >= 0x3c && b <= 0x5b) ||
           (b >= 0x5d && b <= 0x7e);
}

// The value of one "name=value" pair when it is well-formed, else nullopt.
std::optional<std::string_view> pair_value(std::string_view pair, std::string_view name) {
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view key = pair.substr(0, eq);
    std::string_view value = pair.substr(eq + 1);
    if (key.empty() || key != name) {
        return std::nullopt;
    }
    for (const char c : key) {
        if (!core::is_tchar(c)) {
            return std::nullopt;
        }
    }
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
    }
    for (const char c : value) {
        if (!is_cookie_octet(c)) {
            return std::nullopt;
        }
    }
    return value;
}

}  // namespace

std::optional<std::string_view> cookie_value(std::string_view cookie_field, std::string_view name) {
    while (!cookie_field.empty()) {
        const auto semicolon = cookie_field.find(';');
        const std::string_view pair = core::trim_spaces(cookie_field.substr(0, semicolon));
        if (auto value = pair_value(pair, name)) {
            return value;
        }
        if (semicolon == std::string_view::npos) {
            break;
        }
        cookie_field.remove_prefix(semicolon + 1);
    }
    return std::nullopt;
}

std::optional<std::string_view> request_cookie(const http::request_header<>& head, std::string_view name) {
    auto [first, last] = head.equal_range(http::field::cookie);
    for (auto it = first; it != last; ++it) {
        const std::string_view field = it->value();
        if (auto value = cookie_value(field, name)) {
            return value;
        }
    }
    return std::nullopt;
}

presented_token access_token_of(const http::request_header<>& head) {
    const auto authorization = head.find(http::field::authorization);
    if (authorization != head.end()) {
        constexpr std::string_view scheme = "bearer ";
        std::string_view value = authorization->value();
        if (value.size() <= scheme.size()) {
            return {};
        }
        for (std::size_t i = 0; i < scheme.size(); ++i) {
            if ((value[i] | 0x20) != scheme[i]) {
                return {};
            }
        }
        value.remove_prefix(scheme.size());
        return {core::trim_spaces(value), false};
    }
    const auto cookie = request_cookie(head, access_cookie_name);
    if (!cookie || cookie->empty()) {
        return {};
    }
    return {*cookie, true};
}

std::string set_cookie_value(std::string_view name, std::string_view value, const cookie_options& options) {
    std::string out;
    out.reserve(name.size() + value.size() + 80);
    out.append(name).append("=").append(value).append("; Path=/; Max-Age=");
    char digits[24];
    const auto seconds = options.max_age.count() > 0 ? options.max_age.count() : 0;
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, seconds);
    out.append(digits, end).append("; HttpOnly; SameSite=Lax");
    if (options.secure) {
        out.append("; Secure");
    }
    return out;
}

}  // namespace storefront::server
