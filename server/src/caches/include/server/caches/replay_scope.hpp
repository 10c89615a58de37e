#pragma once
// Which rows a replayed answer reads, so that a write elsewhere leaves it standing (the contract:
// caches/data_revision.hpp): the tables its route's row names (routing/route.hpp answer_reuse, the policy as
// data), and for a route that reads one item by id, that item's id from the request's target.

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/row_changes.hpp"

namespace storefront::server {

struct replay_scope {
    // One bit per core::row_table the answer reads; every table when unknown.
    std::uint8_t tables = 0;
    // The one row of `item_table` it reads; nullopt: any row of its tables.
    std::optional<std::int64_t> item;
    core::row_table item_table = core::row_table::products;
};

// The bit of `table` in replay_scope::tables.
[[nodiscard]] constexpr std::uint8_t table_bit(core::row_table table) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(table));
}

// Every table: the scope of an answer whose rows nobody stated.
inline constexpr std::uint8_t all_tables = table_bit(core::row_table::products) |
                                           table_bit(core::row_table::categories) |
                                           table_bit(core::row_table::users);

// What a route's row says its answer reads: tables, and, for a route that reads one item by id (its pattern
// ends in "/{id}"), the table of that item.
struct rows_read {
    std::uint8_t tables = all_tables;
    std::optional<core::row_table> one_row_of;
};

// The scope of an answer to `target` ("/api/v1/products/7?x=1") of a route that reads `reads`. A target
// whose last segment is not an id reads every row of the tables.
[[nodiscard]] replay_scope scope_of(const rows_read& reads, std::string_view target);

// Whether a write of `change` may change an answer of scope `scope`.
[[nodiscard]] bool touches(const replay_scope& scope, const core::row_change& change);

}  // namespace storefront::server
