#pragma once
// The seed writers of the pg_* adapters (each defined next to its adapter, which knows its tables) and the
// reset that empties every table and writes all of them again.

#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/pet_model.hpp"
#include "postgres/connection.hpp"

namespace storefront::storage::detail {

// Each inserts its seed rows on `conn` inside the caller's transaction (first start and reset_to_seed); the
// tables must be empty.
void write_catalogue_seed(
    pg_connection& conn,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
);
void write_user_seed(pg_connection& conn, const std::vector<core::user_credentials>& users);
// After a seed written with explicit ids: `table`'s identity sequence continues after its largest id.
void continue_ids_after_seed(pg_connection& conn, std::string_view table);
// Each inserts one row on `conn` or replaces the row of the same key, for the adapter's own writes and for
// write_rows (common/write_row.hpp), which writes the seeds of these aggregates.
void write_row(pg_connection& conn, const core::pet& pet);
void write_row(pg_connection& conn, const core::pet_order& order);
void write_row(pg_connection& conn, const core::pet_user_credentials& user);

// Empties every table and writes the seed again (and the seed markers), atomically; every instance's
// revisions move through the notifications sent at commit. Throws storage_unavailable.
void pg_reset_to_seed(const std::string& dsn);

}  // namespace storefront::storage::detail
