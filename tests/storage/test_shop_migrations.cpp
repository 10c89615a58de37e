// A SQLite file and a PostgreSQL database made by the release before the shop (issue 42) open with this
// one and gain the stock column (the seed's formula for every product) and the shop's tables.

#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/cart_rules.hpp"
#include "sqlite/connection.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
namespace test = storefront::test;

namespace {

// The catalogue tables as the previous release created them (storage/src/sqlite/database.cpp before stock).
constexpr std::string_view previous_sqlite_catalogue = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY);
CREATE TABLE categories (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, image TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE products (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, price REAL NOT NULL,
    description TEXT NOT NULL, category_id INTEGER NOT NULL REFERENCES categories(id),
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE product_images (
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    url TEXT NOT NULL, PRIMARY KEY (product_id, position));
INSERT INTO meta (key) VALUES ('seeded:catalogue');
INSERT INTO categories VALUES (1, 'Clothes', 'clothes', 'https://x.com/c.png', 1, 1, 1);
INSERT INTO products VALUES (3, 'Old Lamp', 'old-lamp', 9.5, 'From before', 1, 1, 1, 0);
INSERT INTO products VALUES (40, 'Old Mug', 'old-mug', 4.25, 'From before', 1, 1, 1, 0);
)sql";

// Sells one unit of `product` through a fresh shop of `config` (the new tables work).
void sell_one(const storage::storage_config& config, std::int64_t product) {
    auto catalogue = storage::make_catalogue_store(config);
    auto shop = storage::make_shop_store(config, *catalogue);
    BOOST_TEST_REQUIRE(shop->change_cart(
                               7,
                               [&](core::cart& c) -> core::result<void> {
                                   (void)core::add_to_cart(c.lines, product, 1);
                                   return {};
                               },
                               1
    )
                           .has_value());
    storage::checkout_request r;
    r.user_id = 7;
    r.address = {"Ada", "1 Road", std::nullopt, "London", "N1", "GB"};
    r.now = 1;
    r.ttl_ms = 1000;
    const auto order = shop->checkout(r);
    BOOST_TEST_REQUIRE(order.has_value());
    BOOST_TEST(order->id == 1);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shop_migrations)

BOOST_AUTO_TEST_CASE(a_sqlite_file_of_the_previous_release_gains_stock_and_the_shop) {
    const auto path = test::fresh_sqlite_path();
    {
        storage::detail::sqlite_connection old(path, std::chrono::milliseconds(1000));
        old.exec(previous_sqlite_catalogue);
    }
    storage::storage_config config;
    config.backend = "sqlite:" + path;
    {
        auto catalogue = storage::make_catalogue_store(config);
        BOOST_TEST(catalogue->find_product(3).value().stock == 26);   // (3 * 7) % 25 + 5
        BOOST_TEST(catalogue->find_product(40).value().stock == 10);  // (40 * 7) % 25 + 5
        BOOST_TEST(catalogue->find_product(3).value().title == "Old Lamp");
    }
    sell_one(config, 40);
    auto catalogue = storage::make_catalogue_store(config);  // opened again: migrated once, kept
    BOOST_TEST(catalogue->find_product(40).value().stock == 9);
}

BOOST_AUTO_TEST_CASE(a_postgres_database_of_the_previous_release_gains_stock_and_the_shop) {
    if (!test::pg_backend::available()) {
        return;
    }
    const auto dsn = test::create_test_database();
    storage::storage_config config;
    config.backend = dsn;
    (void)storage::make_catalogue_store(config);
    // Back to schema version 3, as the previous release left it: no stock, no shop tables, a stock-less row,
    // no index of sessions by user (v5).
    test::run_sql(
        dsn,
        "DROP TABLE idempotency_keys, payments, order_items, shop_orders, cart_lines, carts; "
        "ALTER TABLE products DROP COLUMN stock; DROP INDEX sessions_by_user; "
        "UPDATE storefront_meta SET value = 3 WHERE key = 'schema_version'"
    );
    const auto upgraded = test::pg_instance(dsn, "upgraded");  // a start of this version
    {
        auto catalogue = storage::make_catalogue_store(upgraded);
        BOOST_TEST(catalogue->find_product(1).value().stock == 12);
        BOOST_TEST(catalogue->find_product(51).value().stock == (51 * 7) % 25 + 5);
    }
    const auto version =
        test::query_value(dsn, "SELECT value FROM storefront_meta WHERE key = 'schema_version'");
    BOOST_TEST(version.value_or("") == "5");
    sell_one(upgraded, 2);
    auto catalogue = storage::make_catalogue_store(upgraded);
    BOOST_TEST(catalogue->find_product(2).value().stock == 18);
}

BOOST_AUTO_TEST_SUITE_END()
