// Offset/limit validation with class-validator style messages, and the index range of one page.
// Every parameter is checked independently so a client sees all of its mistakes at once.

#include "core/pagination.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace storefront::core {

namespace {

// Optional '-' then digits: an integer, even if too large for long long.
bool has_integer_syntax(std::string_view text) noexcept {
    if (!text.empty() && text.front() == '-') {
        text.remove_prefix(1);
    }
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The value of `name` when it is given once and is an integer in [min, max]; otherwise nullopt, and each
// problem is appended to `messages`. An absent parameter adds no message.
std::optional<long long> bounded_integer(
    const query_params& params,
    std::string_view name,
    long long min,
    long long max,
    std::vector<std::string>& messages
) {
    const std::size_t count = count_of(params, name);
    if (count == 0) {
        return std::nullopt;
    }
    const std::string prefix{name};
    if (count > 1) {
        messages.push_back(prefix + " must be given at most once");
        return std::nullopt;
    }
    const std::string_view text = *single_value(params, name);
    const std::optional<long long> value = parse_integer(text);
    if (!value) {
        if (!has_integer_syntax(text)) {
            messages.push_back(prefix + " must be an integer number");
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

}  // namespace

validated<page_request> parse_page(const query_params& params) {
    page_request page;
    std::vector<std::string> messages;
    const auto offset =
        bounded_integer(params, "offset", 0, static_cast<long long>(max_page_offset), messages);
    const auto limit = bounded_integer(params, "limit", 1, static_cast<long long>(max_page_limit), messages);
    if (!messages.empty()) {
        return validation_errors{std::move(messages)};
    }
    if (offset) {
        page.offset = static_cast<std::size_t>(*offset);
    }
    if (limit) {
        page.limit = static_cast<std::size_t>(*limit);
    }
    return page;
}

index_range page_slice(const page_request& page, std::size_t total) noexcept {
    const std::size_t first = std::min(page.offset, total);
    // Written as a difference so offset + limit can never overflow.
    const std::size_t last = first + std::min(page.limit, total - first);
    return {first, last};
}

}  // namespace storefront::core
