// E-mail normalisation: trim, ASCII lower-case, then a deliberately plain syntax check
// (no quoted local parts, comments or IP-literal domains; non-ASCII addresses are refused).

#include "core/email.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "core/text.hpp"

namespace storefront::core {

namespace {

constexpr std::size_t max_email_length = 254;  // RFC 5321 path limit minus the angle brackets
constexpr std::size_t max_local_length = 64;
constexpr std::size_t max_label_length = 63;

constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr bool is_lower_alpha(char c) noexcept {
    return c >= 'a' && c <= 'z';
}

// RFC 5322 atext plus '.', after lower-casing.
bool is_local_char(char c) noexcept {
    if (is_lower_alpha(c) || is_ascii_digit(c)) {
        return true;
    }
    return std::string_view{".!#$%&'*+/=?^_`{|}~-"}.find(c) != std::string_view::npos;
}

bool is_valid_local(std::string_view local) noexcept {
    if (local.empty() || local.size() > max_local_length) {
        return false;
    }
    if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos) {
        return false;
    }
    return std::all_of(local.begin(), local.end(), is_local_char);
}

bool is_valid_label(std::string_view label) noexcept {
    if (label.empty() || label.size() > max_label_length || label.front() == '-' || label.back() == '-') {
        return false;
    }
    return std::all_of(label.begin(), label.end(), [](char c) {
        return is_lower_alpha(c) || is_ascii_digit(c) || c == '-';
    });
}

bool is_valid_domain(std::string_view domain) noexcept {
    std::size_t labels = 0;
    std::string_view last_label;
    while (true) {
        const std::size_t dot = domain.find('.');
        const std::string_view label = domain.substr(0, dot);
        if (!is_valid_label(label)) {
            return false;
        }
        ++labels;
        last_label = label;
        if (dot == std::string_view::npos) {
            break;
        }
        domain.remove_prefix(dot + 1);
    }
    return labels >= 2 && last_label.size() >= 2 &&
           std::all_of(last_label.begin(), last_label.end(), is_lower_alpha);
}

}  // namespace

std::optional<std::string> normalize_email(std::string_view text) {
    while (!text.empty() && is_space(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && is_space(text.back())) {
        text.remove_suffix(1);
    }
    if (text.empty() || text.size() > max_email_length) {
        return std::nullopt;
    }
    std::string email;
    email.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x21 || byte > 0x7E) {  // controls, inner spaces and every non-ASCII byte
            return std::nullopt;
        }
        email.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    const std::size_t at = email.find('@');
    if (at == std::string::npos || email.find('@', at + 1) != std::string::npos) {
        return std::nullopt;
    }
    const std::string_view view{email};
    if (!is_valid_local(view.substr(0, at)) || !is_valid_domain(view.substr(at + 1))) {
        return std::nullopt;
    }
    return email;
}

}  // namespace storefront::core
