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
void write_pet_seed(sqlite_connection& db, const std::vector<core::pet>& pets);
void write_order_seed(sqlite_connection& db, const std::vector<core::pet_order>& orders);
void write_pet_user_seed(sqlite_connection& db, const std::vector<core::pet_user_credentials>& users);

// One transaction: every table of the file at `path` emptied, every aggregate's seed written and marked.
void sqlite_reset_to_seed(const std::string& path, const storage_config& config);

}  // namespace storefront::storage::detail
