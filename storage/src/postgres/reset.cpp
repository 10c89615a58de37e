// pg_reset_to_seed: the seed is computed first (password hashing is slow), then one short transaction.

#include "postgres/reset.hpp"

#include "common/write_row.hpp"
#include "postgres/schema.hpp"
#include "postgres/target.hpp"
#include "seed/catalogue.hpp"
#include "seed/pets.hpp"
#include "seed/users.hpp"

namespace storefront::storage::detail {

void continue_ids_after_seed(pg_connection& conn, std::string_view table) {
    (void)conn.exec(
        "SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM " +
            std::string(table) + "), false)",
        pg_params().add(table)
    );
}

void pg_reset_to_seed(const std::string& dsn) {
    const auto categories = seed_categories();
    const auto products = seed_products();
    const auto users = seed_user_credentials();
    const auto pets = seed_pets();
    const auto orders = seed_orders();
    const auto pet_users = seed_pet_users();

    pg_connection conn(dsn, pg_limits{});
    migrate_schema(conn);
    pg_transaction tx(conn);
    (void)conn.exec("TRUNCATE " + std::string(all_tables) + " RESTART IDENTITY");
    for (const char* aggregate : {"catalogue", "users", "pets", "orders", "pet_users"}) {
        (void)conn.exec(
            "INSERT INTO storefront_meta (key, value) VALUES ($1, 1) ON CONFLICT (key) DO NOTHING",
            pg_params().add(std::string(seed_marker_prefix) + aggregate)
        );
    }
    write_catalogue_seed(conn, categories, products);
    write_user_seed(conn, users);
    write_rows(conn, pets);
    write_rows(conn, orders);
    write_rows(conn, pet_users);
    for (const char* aggregate : notified_aggregates) {
        (void)conn.exec("SELECT pg_notify($1, 'reset')", pg_params().add(pg_channel("", aggregate)));
    }
    tx.commit();
}

}  // namespace storefront::storage::detail
