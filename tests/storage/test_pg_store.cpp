// PostgreSQL-only behaviour of the pg_* adapters, on the TEST_PG_DSN server: several instances on one
// database (LISTEN/NOTIFY moves the other instance's revision), the database going away and coming back
// (storage_unavailable within the timeouts, then the same stores work again), migrations started at once,
// seed data written once, reset_to_seed, and no password in error messages.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/eventually.hpp"
#include "storage/factory.hpp"
#include "storage/storage_error.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
namespace test = storefront::test;
using storefront::test::pg_ctl;
using storefront::test::restart_guard;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

using storefront::test::eventually;

namespace {

double ms_since(steady::time_point start) {
    return std::chrono::duration<double, std::milli>(steady::now() - start).count();
}

core::product_draft draft(std::string title) {
    return {std::move(title), 3.5, "from a test", 1, {"https://x.com/a.png", "with \"quotes\", {braces}"}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pg_store)

BOOST_AUTO_TEST_CASE(a_write_in_one_instance_moves_the_other_instances_revision) {
    if (!test::pg_backend::available()) {
        return;
    }
    const auto dsn = test::create_test_database();
    const auto a = storage::make_catalogue_store(test::pg_instance(dsn, "a"));
    const auto b = storage::make_catalogue_store(test::pg_instance(dsn, "b"));
    // b's listener bumps its revision once it listens.
    BOOST_TEST_REQUIRE(eventually([&] { return b->revision() > 1; }, 5s));
    std::vector<double> delays;
    for (int i = 0; i < 20; ++i) {
        const auto before = b->revision();
        const auto start = steady::now();
        const auto created = a->create_product(draft("Shared " + std::to_string(i)));
        BOOST_TEST_REQUIRE(created.has_value());
        BOOST_TEST_REQUIRE(eventually([&] { return b->revision() > before; }, 2s));
        delays.push_back(ms_since(start));
        const auto seen = b->find_product(created->id);
        BOOST_TEST_REQUIRE(seen.has_value());
        BOOST_TEST(seen->images == created->images);
    }
    std::sort(delays.begin(), delays.end());
    BOOST_TEST_MESSAGE(
        "NOTIFY delay (write committed in a -> b's revision moved), 20 writes: median "
        << delays[delays.size() / 2] << " ms, max " << delays.back() << " ms"
    );
    BOOST_TEST(delays.back() < 2000.0);
    // The user stores share each instance's pool and LISTEN connection, which already listens.
    const auto users_a = storage::make_user_store(test::pg_instance(dsn, "a"));
    const auto users_b = storage::make_user_store(test::pg_instance(dsn, "b"));
    const auto before = users_b->revision();
    BOOST_TEST_REQUIRE(
        users_a->create_user({"shared@example.com", "S", "h", "https://x.com/a.png", "customer"}).has_value()
    );
    BOOST_TEST(eventually([&] { return users_b->revision() > before; }, 2s));
    BOOST_TEST(users_b->email_taken("shared@example.com").value());
}

BOOST_AUTO_TEST_CASE(database_down_means_storage_unavailable_then_the_same_stores_recover) {
    if (!test::pg_backend::available()) {
        return;
    }
    if (!std::getenv("TEST_PG_CTL_CMD")) {
        BOOST_WARN_MESSAGE(
            false, "skipped: TEST_PG_CTL_CMD is unset (run under tests/pg/with_pg_cluster.sh)"
        );
        return;
    }
    const auto config = test::pg_backend::config();
    const auto catalogue = storage::make_catalogue_store(config);
    const auto users = storage::make_user_store(config);
    BOOST_TEST_REQUIRE(catalogue->list_categories().size() == 5u);
    BOOST_TEST_REQUIRE(eventually([&] { return catalogue->revision() > 1; }, 5s));
    const auto revision_before = catalogue->revision();

    restart_guard guard;
    BOOST_TEST_REQUIRE(pg_ctl("stop"));
    guard.stopped = true;
    for (int attempt = 0; attempt < 3; ++attempt) {
        BOOST_TEST_CONTEXT("attempt " << attempt) {
            auto start = steady::now();
            BOOST_CHECK_THROW((void)catalogue->list_categories(), storage::storage_unavailable);
            BOOST_TEST_MESSAGE("database down: read refused after " << ms_since(start) << " ms");
            BOOST_TEST(ms_since(start) < 6000.0);
            start = steady::now();
            BOOST_CHECK_THROW((void)catalogue->create_product(draft("Down")), storage::storage_unavailable);
            BOOST_CHECK_THROW((void)users->find_user(1), storage::storage_unavailable);
            BOOST_TEST(ms_since(start) < 12000.0);
        }
    }
    BOOST_TEST_REQUIRE(pg_ctl("start"));
    guard.stopped = false;
    // Back-off may refuse a few calls at first; then the same objects serve again.
    const auto start = steady::now();
    BOOST_TEST_REQUIRE(eventually(
        [&] {
            try {
                return catalogue->list_categories().size() == 5u;
            } catch (const storage::storage_unavailable&) {
                return false;
            }
        },
        15s
    ));
    BOOST_TEST_MESSAGE("recovered " << ms_since(start) << " ms after the server was ready");
    // The listener lost its connection and listens again (no write happened): cached pages are stale.
    BOOST_TEST(eventually([&] { return catalogue->revision() >= revision_before + 2; }, 5s));
    BOOST_TEST(catalogue->create_product(draft("Back up")).has_value());
    BOOST_TEST(users->find_user(1)->name == "Jhon");
}

BOOST_AUTO_TEST_CASE(a_write_blocked_by_a_lock_gives_up_within_the_statement_timeout) {
    if (!test::pg_backend::available()) {
        return;
    }
    const auto config = test::pg_backend::config();
    const auto catalogue = storage::make_catalogue_store(config);
    BOOST_TEST_REQUIRE(catalogue->list_categories().size() == 5u);
    const auto start = steady::now();
    {
        const test::open_transaction blocker(config.backend, "LOCK TABLE products IN EXCLUSIVE MODE");
        BOOST_CHECK_THROW((void)catalogue->create_product(draft("Blocked")), storage::storage_unavailable);
    }
    BOOST_TEST_MESSAGE("blocked write refused after " << ms_since(start) << " ms");
    BOOST_TEST(ms_since(start) < 9000.0);                                   // statement_timeout is 5 s
    BOOST_TEST(catalogue->create_product(draft("Unblocked")).has_value());  // the connection is fine again
}

BOOST_AUTO_TEST_CASE(instances_migrating_at_once_create_the_schema_and_seed_once) {
    if (!test::pg_backend::available()) {
        return;
    }
    const auto dsn = test::create_test_database();
    constexpr int instances = 6;
    std::vector<std::unique_ptr<storage::catalogue_store>> stores(instances);
    std::vector<std::string> errors(instances);
    std::vector<std::thread> threads;
    for (int i = 0; i < instances; ++i) {
        threads.emplace_back([&, i] {
            try {
                stores[i] = storage::make_catalogue_store(test::pg_instance(dsn, "m" + std::to_string(i)));
                (void)stores[i]->count_products({});
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    for (int i = 0; i < instances; ++i) {
        BOOST_TEST_CONTEXT("instance " << i) {
            BOOST_TEST(errors[i] == "");
            BOOST_TEST_REQUIRE(stores[i] != nullptr);
            BOOST_TEST(stores[i]->count_products({}) == 51u);
            BOOST_TEST(stores[i]->list_categories().size() == 5u);
        }
    }
    BOOST_TEST(
        test::query_value(dsn, "SELECT value FROM storefront_meta WHERE key = 'schema_version'")
            .value_or("") == "5"  // every migration applied once (v2: refresh-token families, v3: price
                                  // index, v4: the shop, v5: sessions by user)
    );
    BOOST_TEST(
        test::query_value(dsn, "SELECT count(*) FROM storefront_meta WHERE key LIKE 'seeded:%'")
            .value_or("") == "1"
    );
}

BOOST_AUTO_TEST_CASE(seed_is_written_once_and_reset_restores_it) {
    if (!test::pg_backend::available()) {
        return;
    }
    const auto config = test::pg_backend::config();
    auto store = storage::make_catalogue_store(config);
    const auto created = store->create_product(draft("Mine"));
    BOOST_TEST_REQUIRE(created.has_value());
    // Seed rows are read-only through the port; an operator deletes one behind its back.
    test::run_sql(config.backend, "DELETE FROM products WHERE id = 51");
    store.reset();
    store = storage::make_catalogue_store(test::pg_instance(config.backend, "restarted"));  // a later start
    BOOST_TEST(store->count_products({}) == 51u);  // 50 seed products and "Mine": product 51 stays deleted
    BOOST_TEST(!store->find_product(51).has_value());
    BOOST_TEST(store->find_product(created->id).has_value());

    const auto before = store->revision();
    storage::reset_to_seed(config);
    BOOST_TEST(store->find_product(51).has_value());
    BOOST_TEST(!store->find_product(created->id).has_value());
    BOOST_TEST(store->count_products({}) == 51u);
    BOOST_TEST(eventually([&] { return store->revision() > before; }, 2s));
    const auto again = store->create_product(draft("After reset"));
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->id == 52);
    const auto users = storage::make_user_store(config);
    BOOST_TEST(users->user_count() == 3u);
}

BOOST_AUTO_TEST_CASE(url_connection_strings_select_postgresql) {
    if (!test::pg_backend::available()) {
        return;
    }
    const std::string server = std::getenv("TEST_PG_DSN");
    const auto slash = server.rfind('/');
    if (!server.starts_with("postgresql://") || slash < std::string("postgresql://").size()) {
        BOOST_WARN_MESSAGE(false, "skipped: TEST_PG_DSN is not a postgresql:// URL with a database");
        return;
    }
    const auto keyed = test::create_test_database();  // "... dbname='storefront_test_…'"
    const auto name_start = keyed.rfind("dbname='") + 8;
    const auto database = keyed.substr(name_start, keyed.size() - name_start - 1);
    const auto url = [&](const std::string& scheme) {
        storage::storage_config config;
        config.backend = scheme + server.substr(13, slash + 1 - 13) + database;
        config.pool_size = 1;
        return config;
    };
    const auto first = storage::make_pet_store(url("postgresql://"));
    BOOST_TEST(first->find(1)->name == "Cat 1");
    BOOST_TEST(first->remove(1));
    const auto second = storage::make_pet_store(url("postgres://"));  // the same database, already seeded
    BOOST_TEST(!second->find(1));
    BOOST_TEST(second->find(2)->name == "Cat 2");
}

BOOST_AUTO_TEST_CASE(unreachable_server_fails_fast_without_leaking_the_password) {
    storage::storage_config config;
    config.backend = "postgresql://storefront:s3cret-pw@127.0.0.1:1/none";  // nothing listens on port 1
    const auto start = steady::now();
    const auto store = storage::make_catalogue_store(config);  // builds; the database is needed per call
    try {
        (void)store->list_categories();
        BOOST_FAIL("expected storage_unavailable");
    } catch (const storage::storage_unavailable& e) {
        BOOST_TEST(std::string(e.what()).find("s3cret-pw") == std::string::npos);
    }
    BOOST_TEST(ms_since(start) < 6000.0);
}

// Title filters: a pg_trgm index where the extension can be created, and the same answers where it cannot
// (a role without the right to create extensions in its database).
BOOST_AUTO_TEST_CASE(title_filters_have_a_trigram_index_or_work_without_pg_trgm) {
    if (!test::pg_backend::available()) {
        return;
    }
    const std::string index_count =
        "SELECT count(*) FROM pg_indexes WHERE indexname = 'products_by_title_trigram'";
    const auto with_extension = test::create_test_database();
    storage::storage_config config;
    config.backend = with_extension;
    const auto indexed = storage::make_catalogue_store(config);
    BOOST_TEST(test::query_value(with_extension, index_count).value_or("") == "1");

    const auto without = test::create_test_database();
    test::run_sql(
        without,
        "DO $$ BEGIN CREATE ROLE storefront_no_extensions LOGIN; "
        "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
    );
    test::run_sql(without, "GRANT CREATE ON SCHEMA public TO storefront_no_extensions");
    config.backend = without + " user=storefront_no_extensions";
    const auto plain = storage::make_catalogue_store(config);
    BOOST_TEST(test::query_value(without, index_count).value_or("") == "0");
    BOOST_TEST(
        test::query_value(without, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'")
            .value_or("") == "0"
    );
    for (const char* title : {"classic", "CLASSIC", "ic", "x", "no such title", "%", "_"}) {
        BOOST_TEST_CONTEXT(title) {
            core::product_filter filter;
            filter.title = title;
            BOOST_TEST(plain->count_products(filter) == indexed->count_products(filter));
            const auto a = plain->list_products(filter, {0, 100});
            const auto b = indexed->list_products(filter, {0, 100});
            BOOST_TEST(a.size() == b.size());
            for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
                BOOST_TEST(a[i].id == b[i].id);
            }
        }
    }
    core::product_filter classic;
    classic.title = "classic";
    BOOST_TEST(indexed->count_products(classic) > 0u);
}

// The title index takes new rows into a small pending list (cheap inserts, short scans of it per lookup),
// also when an older version made it with fastupdate off; titles found through it stay right as rows
// move from the list into the tree.
BOOST_AUTO_TEST_CASE(the_title_index_gathers_inserts_in_a_small_pending_list) {
    if (!test::pg_backend::available()) {
        return;
    }
    const std::string options =
        "SELECT array_to_string(reloptions, ',') FROM pg_class "
        "WHERE relname = 'products_by_title_trigram'";
    const std::string expected = "fastupdate=on,gin_pending_list_limit=64";
    const auto dsn = test::create_test_database();
    storage::storage_config config;
    config.backend = dsn;
    auto store = storage::make_catalogue_store(config);
    BOOST_TEST(test::query_value(dsn, options).value_or("") == expected);
    store.reset();
    test::run_sql(dsn, "ALTER INDEX products_by_title_trigram RESET (gin_pending_list_limit)");
    test::run_sql(dsn, "ALTER INDEX products_by_title_trigram SET (fastupdate = off)");
    store = storage::make_catalogue_store(test::pg_instance(dsn, "upgraded"));  // a start of this version
    BOOST_TEST(test::query_value(dsn, options).value_or("") == expected);
    for (int i = 0; i < 600; ++i) {  // well past 64 kB of trigrams: merged into the tree on the way
        BOOST_TEST_REQUIRE(store->create_product(draft("Pending Lantern " + std::to_string(i))).has_value());
    }
    core::product_filter lantern;
    lantern.title = "pending lantern";
    BOOST_TEST(store->count_products(lantern) == 600u);
    lantern.title = "lantern 59";
    BOOST_TEST(store->count_products(lantern) == 11u);  // 59 and 590-599
}

BOOST_AUTO_TEST_SUITE_END()
