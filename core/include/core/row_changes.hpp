#pragma once
// Which rows a store's writes touched between two of its revisions, so a cache of serialised rows can
// re-serialise only those instead of every row.

#include <cstdint>
#include <vector>

namespace storefront::core {

// The table a changed row belongs to.
enum class row_table : std::uint8_t { products, categories, users };

// Row `id` of `table` was created, changed or deleted (which of them: ask the store).
struct row_change {
    row_table table = row_table::products;
    std::int64_t id = 0;
};

// The rows written after some earlier revision, up to and including `revision`, in commit order; a row may
// appear more than once.
struct row_changes {
    std::uint64_t revision = 0;
    std::vector<row_change> rows;
};

}  // namespace storefront::core
