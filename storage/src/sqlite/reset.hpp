#pragma once
// The seed writers of the sqlite_* adapters (each defined next to its adapter, which knows its tables) and
// the reset that empties the file and writes all of them again.

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/pet_model.hpp"
#include "sqlite/connection.hpp"
#include "storage/storage_config.hpp"

namespace storefront::storage::detail {

// Each inserts its seed rows on `db` inside the caller's transaction; the tables must be empty.
void write_catalogue_seed(
    sqlite_connection& db,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
);
void write_user_seed(sqlite_connection& db, const std::vector<core::user_credentials>& users);
// Each inserts one row on `db` or replaces the row of the same key, for the adapter's own writes and for
// write_rows (common/write_row.hpp), which writes the seeds of these aggregates.
void write_row(sqlite_connection& db, const core::pet& pet);
void write_row(sqlite_connection& db, const core::pet_order& order);
void write_row(sqlite_connection& db, const core::pet_user_credentials& user);

// One transaction: every table of the file at `path` emptied, every aggregate's seed written and marked.
void sqlite_reset_to_seed(const std::string& path, const storage_config& config);

}  // namespace storefront::storage::detail
