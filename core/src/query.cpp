// Lookups over decoded query parameters and the strict number parsers every query validator shares.
// Parsers accept only the exact textual forms documented in query.hpp; anything else is nullopt.

#include "core/query.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include <system_error>

namespace storefront::core {

namespace {

// LLONG_MAX has 19 digits; from_chars reports the 19-digit values that still overflow.
constexpr std::size_t max_integer_digits = 19;

constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

// Optional '-' then digits: an integer, even if too large for long long.
bool has_integer_syntax(std::string_view text) noexcept {
    if (!text.empty() && text.front() == '-') {
        text.remove_prefix(1);
    }
    return !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
}

}  // namespace

std::size_t count_of(const query_params& params, std::string_view name) {
    return static_cast<std::size_t>(std::count_if(params.begin(), params.end(), [name](const query_param& p) {
        return p.name == name;
    }));
}

std::optional<std::string_view> single_value(const query_params& params, std::string_view name) {
    const query_param* found = nullptr;
    for (const auto& p : params) {
        if (p.name != name) {
            continue;
        }
        if (found != nullptr) {
            return std::nullopt;
        }
        found = &p;
    }
    if (found == nullptr) {
        return std::nullopt;
    }
    return std::string_view{found->value};
}

std::optional<std::string_view> one_value(
    const query_params& params, std::string_view name, std::vector<std::string>& messages
) {
    const std::size_t count = count_of(params, name);
    if (count > 1) {
        messages.push_back(std::string(name) + " must be given at most once");
    }
    if (count != 1) {
        return std::nullopt;
    }
    return single_value(params, name);
}

std::optional<long long> parse_integer(std::string_view text) {
    const std::string_view digits = (!text.empty() && text.front() == '-') ? text.substr(1) : text;
    if (digits.empty() || digits.size() > max_integer_digits ||
        !std::all_of(digits.begin(), digits.end(), is_digit)) {
        return std::nullopt;
    }
    long long value = 0;
    const char* const last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), last, value);
    if (ec != std::errc{} || ptr != last) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> parse_decimal(std::string_view text) {
    // from_chars would also take "inf", "nan" and "infinity"; allow only the characters of a plain decimal.
    const std::string_view body = (!text.empty() && text.front() == '-') ? text.substr(1) : text;
    if (body.empty() || !(is_digit(body.front()) || body.front() == '.')) {
        return std::nullopt;
    }
    const bool plain = std::all_of(body.begin(), body.end(), [](char c) {
        return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    });
    if (!plain) {
        return std::nullopt;
    }
    double value = 0;
    const char* const last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), last, value, std::chars_format::general);
    if (ec != std::errc{} || ptr != last || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<long long> bounded_integer_param(
    const query_params& params,
    std::string_view name,
    long long min,
    long long max,
    std::vector<std::string>& messages
) {
    const std::optional<std::string_view> given = one_value(params, name, messages);
    if (!given) {
        return std::nullopt;
    }
    const std::string prefix{name};
    const std::string_view text = *given;
    const std::optional<long long> value = parse_integer(text);
    if (!value) {
        if (!has_integer_syntax(text)) {
            messages.push_back(prefix + " must be a number conforming to the specified constraints");
        } else if (text.front() == '-') {  // an integer beyond long long: still a bounds problem
            messages.push_back(prefix + " must not be less than " + std::to_string(min));
        } else {
            messages.push_back(prefix + " must not be greater than " + std::to_string(max));
        }
        return std::nullopt;
    }
    if (*value < min) {
        messages.push_back(prefix + " must not be less than " + std::to_string(min));
        return std::nullopt;
    }
    if (*value > max) {
        messages.push_back(prefix + " must not be greater than " + std::to_string(max));
        return std::nullopt;
    }
    return value;
}

}  // namespace storefront::core
