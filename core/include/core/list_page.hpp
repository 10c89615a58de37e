#pragma once
// Which page a list request asks for, under the --compat mode: one page (parse_page's rules), or the whole
// list (a whole-by-default list without offset and limit; under compat public also limit=0 or offset
// without limit, as the public service answers them).

#include <cstddef>
#include <limits>

#include "core/compat.hpp"
#include "core/pagination.hpp"
#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

// One page, or the whole list (`page` then spans every item, and the answer has no Link).
struct list_page {
    page_request page;
    bool whole = false;
};

// The page that spans every item.
inline constexpr page_request every_item{0, std::numeric_limits<std::size_t>::max()};

// Neither offset nor limit on a list answered whole by default (categories, related products): the whole
// list. Under compat_mode::public_service also `limit=0` (given once), or `offset` without `limit`: the
// whole list, with offset still checked (parse_page's messages). Otherwise parse_page, with its messages.
[[nodiscard]] validated<list_page> parse_list_page(
    const query_params& params, bool whole_by_default, compat_mode mode = compat_mode::none
);

}  // namespace storefront::core
