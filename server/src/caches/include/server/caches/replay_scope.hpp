#pragma once
// Which rows a replayed answer reads, so that a write elsewhere leaves it standing (the contract:
// caches/data_revision.hpp): the tables of its route's collection, and for one item of a collection, that
// item's id. Read from the route's pattern and the request's target, so routing stays the one place that
// knows routes.

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

// The scope of an answer to `target` matched by a route of `pattern` ("/api/v1/products/{id}"). Under
// /api/v1: users read users; categories, a category and a category by slug read categories; products and
// the products of a category read products and categories (a product embeds its category). A pattern ending
// in /{id} right under its collection reads that item only of the collection's table. Anything else reads
// every table.
[[nodiscard]] replay_scope scope_of(std::string_view pattern, std::string_view target);

// Whether a write of `change` may change an answer of scope `scope`.
[[nodiscard]] bool touches(const replay_scope& scope, const core::row_change& change);

}  // namespace storefront::server
