// A list request's page under the --compat mode: storefront's bounds (parse_page), or the public service's
// whole-list answers to limit=0 and to offset without limit.

#include "core/list_page.hpp"

#include <string>
#include <utility>
#include <vector>

namespace storefront::core {

namespace {

// The public service's whole-list cases: limit=0 (given once), or offset without limit.
bool public_whole_list(const query_params& params) {
    const std::size_t limits = count_of(params, "limit");
    if (limits == 0) {
        return count_of(params, "offset") > 0;
    }
    const auto limit = single_value(params, "limit");
    return limits == 1 && limit && parse_integer(*limit) == 0;
}

}  // namespace

validated<list_page> parse_list_page(const query_params& params, bool whole_by_default, compat_mode mode) {
    const bool neither = count_of(params, "offset") == 0 && count_of(params, "limit") == 0;
    if (whole_by_default && neither) {
        return list_page{every_item, true};
    }
    if (mode == compat_mode::public_service && public_whole_list(params)) {
        std::vector<std::string> messages;
        (void)bounded_integer_param(params, "offset", 0, static_cast<long long>(max_page_offset), messages);
        if (!messages.empty()) {
            return validation_errors{std::move(messages)};
        }
        return list_page{every_item, true};
    }
    auto page = parse_page(params);
    if (!page) {
        return std::move(page).error();
    }
    return list_page{*page, false};
}

}  // namespace storefront::core
