#pragma once
// The seed writers of the pg_* adapters (each defined next to its adapter, which knows its tables) and the
// reset that empties every table and writes all of them again.

#include <string>
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
void write_pet_seed(pg_connection& conn, const std::vector<core::pet>& pets);
void write_order_seed(pg_connection& conn, const std::vector<core::pet_order>& orders);
void write_pet_user_seed(pg_connection& conn, const std::vector<core::pet_user_credentials>& users);

// Empties every table and writes the seed again (and the seed markers), atomically; every instance's
// revisions move through the notifications sent at commit. Throws storage_unavailable.
void pg_reset_to_seed(const std::string& dsn);

}  // namespace storefront::storage::detail
