#pragma once
// The page offsets a list's navigation links point to (the `Link` header's first, prev, next and last),
// from the number of matching items and the page asked for.

#include <cstddef>
#include <optional>

namespace storefront::core {

struct paging_links {
    std::size_t first = 0;
    std::optional<std::size_t> prev;  // only when offset > 0
    std::optional<std::size_t> next;  // only when items remain after this page
    std::size_t last = 0;             // the page holding the last item; 0 for an empty list
};

// first = 0; prev = max(0, offset - limit) when offset > 0 (from an offset past the end too, the formula
// unchanged); next = offset + limit when that is below total; last = floor((total - 1) / limit) * limit.
// limit 0 (a whole-list answer) has no prev or next and last = 0. Never overflows.
[[nodiscard]] paging_links paging_links_for(
    std::size_t total, std::size_t offset, std::size_t limit
) noexcept;

}  // namespace storefront::core
