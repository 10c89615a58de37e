#pragma once
// The product filter of the SQLite catalogue as SQL built per filter (only the conditions it sets, so the
// planner can use the title, price and category indexes), and the search indexes those conditions use.

#include <cstdint>
#include <string>

#include "core/model.hpp"
#include "sqlite/connection.hpp"

namespace storefront::storage::detail {

// The FROM and WHERE clauses of the products passing `filter` (products as `p`, their categories as `c`),
// reading the filter's values from ?1..?6 and the title index's query from ?9 (bind_product_filter).
[[nodiscard]] std::string product_filter_clauses(const core::product_filter& filter);

// The ORDER BY of a page of those products: by id, but with the id hidden from the planner when a price or
// category index can narrow the rows (else it walks every product in id order hoping to fill the page
// early, which for a filter matching nothing means reading them all).
[[nodiscard]] std::string product_filter_order(const core::product_filter& filter);

// Binds what product_filter_clauses(filter) reads.
void bind_product_filter(sqlite_statement& s, const core::product_filter& filter);

// Creates, inside the caller's schema transaction, the title trigram index (FTS5) with the triggers that
// note which products it has to catch up with, filling it from the existing rows when it is new (a file
// from before the index), and the price index.
void create_product_indexes(sqlite_connection& w);

// Brings the title index up to date with the products the triggers noted since the last call, when they
// are at least `at_least` (inside the caller's write transaction; a group commit runs it before each
// batch's commit with title_backlog_limit: each catch-up writes an FTS segment, dearer than a create).
void sync_title_index(sqlite_connection& w, std::int64_t at_least);

// The stale titles a filter may read besides the index (each one a row lookup and an exact test). Larger
// catch-ups write fewer, larger FTS segments: 40,000 titles indexed 256 at a time cost 6.3 us each, 1,024 at
// a time 4.1 us (python sqlite3, session 16): the difference is ~7 % of a create on the writer thread.
constexpr std::int64_t title_backlog_limit = 1024;

}  // namespace storefront::storage::detail
