#pragma once
// The PostgreSQL schema of every aggregate and its migrations, run by whichever instance gets there first:
// one transaction under an advisory lock creates what is missing and records the version in
// storefront_meta, so instances starting at once neither collide nor migrate twice. Seed data is written
// once per aggregate, guarded by a marker row (not by "the table is empty": deleted rows stay deleted).

#include <string>
#include <string_view>

#include "postgres/connection.hpp"

namespace storefront::storage::detail {

// Brings the schema to the current version; throws storage_unavailable or pg_error. A non-empty `schema`
// (the connection's search_path) is created first, so the tables land in it.
void migrate_schema(pg_connection& conn, const std::string& schema = {});

// Sets the seed marker of `aggregate` inside the caller's transaction (common/seed_once.hpp); true when this
// call set it, false when it was set already (a concurrent caller waits for the first one to commit).
[[nodiscard]] bool claim_seed_marker(pg_connection& conn, std::string_view aggregate);

// Every aggregate's table names in the order TRUNCATE accepts them, and the seed markers' key prefix.
inline constexpr std::string_view all_tables =
    "products, categories, users, files, pets, orders, pet_users, pet_images, sessions, carts, cart_lines, "
    "shop_orders, order_items, payments, idempotency_keys";
inline constexpr std::string_view seed_marker_prefix = "seeded:";

}  // namespace storefront::storage::detail
