#pragma once
// Offset/limit pagination with the spec's bounds: offset >= 0 (default 0), limit 1..100 (default 10).

#include <cstddef>

#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

struct page_request {
    std::size_t offset = 0;
    std::size_t limit = 10;
};

inline constexpr std::size_t max_page_limit = 100;
inline constexpr std::size_t max_page_offset = 1'000'000'000;  // larger offsets are refused, not clamped

// Reads `offset` and `limit`; other parameters are ignored. Every problem is reported:
// non-integer, out of bounds, or given more than once.
[[nodiscard]] validated<page_request> parse_page(const query_params& params);

// The [first, last) index range of a page over `total` items.
struct index_range {
    std::size_t first;
    std::size_t last;
};
[[nodiscard]] index_range page_slice(const page_request& page, std::size_t total) noexcept;

}  // namespace storefront::core
