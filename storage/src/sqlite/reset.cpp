// sqlite_reset_to_seed: --reset-data on a SQLite file, every table emptied and every seed written again in
// one transaction, so a crash in the middle leaves the old data, never half a seed.

#include "sqlite/reset.hpp"

#include "common/write_row.hpp"
#include "seed/catalogue.hpp"
#include "seed/pets.hpp"
#include "seed/users.hpp"
#include "sqlite/database.hpp"

namespace storefront::storage::detail {

namespace {

// Children before parents, for the foreign keys. sqlite_sequence restarts the AUTOINCREMENT ids.
constexpr std::string_view empty_every_table = R"sql(
DELETE FROM product_images; DELETE FROM products; DELETE FROM categories; DELETE FROM users;
DELETE FROM files; DELETE FROM pet_photos; DELETE FROM pet_tags; DELETE FROM pets; DELETE FROM orders;
DELETE FROM pet_users; DELETE FROM pet_images; DELETE FROM sessions; DELETE FROM cart_lines; DELETE FROM carts;
DELETE FROM payments; DELETE FROM order_items; DELETE FROM shop_orders; DELETE FROM idempotency_keys;
DELETE FROM meta; DELETE FROM sqlite_sequence;
INSERT INTO meta (key) VALUES ('seeded:catalogue'), ('seeded:users'), ('seeded:pets'), ('seeded:orders'),
    ('seeded:pet_users');
)sql";

}  // namespace

void sqlite_reset_to_seed(const std::string& path, const storage_config& config) {
    // Hashed before the write lock is taken: Argon2id is slow and writers would wait for it.
    const auto users = seed_user_credentials();
    const auto pet_users = seed_pet_users();
    const auto db = sqlite_database::open(path, config);
    {
        auto w = db->writer();
        sqlite_connection::transaction tx(*w);
        w->exec(empty_every_table);
        write_catalogue_seed(*w, seed_categories(), seed_products());
        write_user_seed(*w, users);
        write_rows(*w, seed_pets());
        write_rows(*w, seed_orders());
        write_rows(*w, pet_users);
        tx.commit();
    }
    // Stores open on this file in this process must not serve pages cached before the reset.
    db->catalogue_changes.record_unknown();
    db->user_changes.record_unknown();
}

}  // namespace storefront::storage::detail
