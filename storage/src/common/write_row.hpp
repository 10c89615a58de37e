#pragma once
// What the durable pet, order and pet user adapters build on their backend's `write_row(Connection&, const
// Row&)` (declared in <backend>/reset.hpp): an insert that replaces the row of the same key, as the
// petstore's writes do.

#include <cstdint>
#include <string_view>
#include <vector>

namespace storefront::storage::detail {

// The seed of such an aggregate, inside the caller's transaction: every row through write_row (first start
// and reset_to_seed).
template <class Connection, class Row>
void write_rows(Connection& conn, const std::vector<Row>& rows) {
    for (const auto& row : rows) {
        write_row(conn, row);
    }
}

// The petstore's add, inside the caller's write: a row whose `id` is 0 gets the backend's next_free_id of
// `table` (the largest id + 1), then the row is written whole, replacing any row of the same key.
template <class Connection, class Row>
void add_row(Connection& conn, std::string_view table, std::int64_t& id, const Row& row) {
    if (id == 0) {
        id = next_free_id(conn, table);
    }
    write_row(conn, row);
}

}  // namespace storefront::storage::detail
