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

validated<page_request> parse_page(const query_params& params) {
    page_request page;
    std::vector<std::string> messages;
    const auto offset =
        bounded_integer_param(params, "offset", 0, static_cast<long long>(max_page_offset), messages);
    const auto limit =
        bounded_integer_param(params, "limit", 1, static_cast<long long>(max_page_limit), messages);
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
