// The product filter on every adapter, now answered from indexes (title trigrams, price, category): for a
// table of filters over titles with wildcards, quotes, non-ASCII letters and short patterns, every page and
// count equals core::matches applied to every product; the indexes follow creates, renames, moves and
// deletes; and an SQLite file written before the indexes existed is migrated and answers the same.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/temp_dir.hpp"
#include "core/catalogue_rules.hpp"
#include "core/list_page.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/product_filter.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;

namespace {

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using all_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;

std::vector<std::int64_t> ids_of(const std::vector<core::product>& products) {
    std::vector<std::int64_t> ids;
    for (const auto& p : products) {
        ids.push_back(p.id);
    }
    return ids;
}

// What the filter has always meant: core::matches over every product, in id order.
std::vector<std::int64_t> expected(const storage::catalogue_store& store, const core::product_filter& f) {
    std::vector<std::int64_t> out;
    for (const auto& p : store.list_products({}, core::every_item)) {
        if (core::matches(f, p)) {
            out.push_back(p.id);
        }
    }
    return out;
}

const std::vector<std::string> tricky_titles = {
    "100% Cotton_Tee",
    "Quote \"Mark\" Mug",
    "Back\\Slash Bowl",
    "ABCdef Lamp",
    "xY",
    "Caf\xC3\xA9 Cup",
    "CAF\xC3\x89 CUPS",
    "Stra\xC3\x9F"
    "e Sign",
    "a%b_c",
    "Kelvin \xE2\x84\xAA Mug",
};

core::product_filter titled(std::string title) {
    core::product_filter f;
    f.title = std::move(title);
    return f;
}

std::vector<core::product_filter> filter_table() {
    std::vector<core::product_filter> out;
    for (const char* title :
         {"cot",
          "COTTON",
          "100%",
          "0% c",
          "_te",
          "%",
          "_",
          "%b_",
          "\"mark\"",
          "e \"m",
          "\\sl",
          "k\\s",
          "caf",
          "CAF",
          "caf\xC3\xA9",
          "CAF\xC3\x89",
          "\xC3\xA9 c",
          "\xC3\xA9",
          "ab",
          "a",
          "",
          "cdef",
          "def l",
          "xy",
          "xyz",
          "kelvin k",
          "k mug",
          "\xE2\x84\xAA",
          "no such title at all",
          "shirt",
          "CLASSIC",
          " "}) {
        out.push_back(titled(title));
    }
    core::product_filter f;
    f.price = 12.5;
    out.push_back(f);
    f = {};
    f.price = 12.504;
    out.push_back(f);
    f = {};
    f.price_min = 50;
    f.price_max = 60;
    out.push_back(f);
    f = {};
    f.price_min = 1e9;
    out.push_back(f);
    f = {};
    f.price_max = 10;
    out.push_back(f);
    f = titled("mug");
    f.price_min = 10;
    f.price_max = 20;
    f.category_id = 2;
    out.push_back(f);
    f = {};
    f.category_id = 4;
    out.push_back(f);
    f = {};
    f.category_id = 999;
    out.push_back(f);
    f = {};
    f.category_slug = "shoes";
    out.push_back(f);
    f = titled("e");
    f.category_slug = "shoes";
    f.category_id = 4;
    out.push_back(f);
    f = {};
    f.category_slug = "shoes";
    f.category_id = 1;
    out.push_back(f);
    f = {};
    f.category_slug = "no-such-category";
    out.push_back(f);
    return out;
}

std::string describe(const core::product_filter& f) {
    std::string d;
    d += f.title ? "title=[" + *f.title + "] " : "";
    d += f.price ? "price=" + std::to_string(*f.price) + " " : "";
    d += f.price_min ? "min=" + std::to_string(*f.price_min) + " " : "";
    d += f.price_max ? "max=" + std::to_string(*f.price_max) + " " : "";
    d += f.category_id ? "category=" + std::to_string(*f.category_id) + " " : "";
    d += f.category_slug ? "slug=" + *f.category_slug : "";
    return d;
}

// Every filter of the table answers as core::matches does, paged and counted.
void check_every_filter(const storage::catalogue_store& store) {
    for (const auto& f : filter_table()) {
        BOOST_TEST_CONTEXT(describe(f)) {
            const auto want = expected(store, f);
            BOOST_TEST(
                ids_of(store.list_products(f, core::every_item)) == want, boost::test_tools::per_element()
            );
            BOOST_TEST(store.count_products(f) == want.size());
            const std::vector<std::int64_t> second_page(
                want.begin() + std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(want.size())),
                want.begin() + std::min<std::ptrdiff_t>(4, static_cast<std::ptrdiff_t>(want.size()))
            );
            BOOST_TEST(
                ids_of(store.list_products(f, {2, 2})) == second_page, boost::test_tools::per_element()
            );
        }
    }
}

void add_tricky_products(storage::catalogue_store& store) {
    std::int64_t category = 1;
    for (const auto& title : tricky_titles) {
        const auto created = store.create_product(
            {title, 12.5 + static_cast<double>(category), "d", category, {"https://x.com/a.png"}}
        );
        BOOST_TEST_REQUIRE(created.has_value(), title);
        category = category % 5 + 1;
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(product_filters)

BOOST_AUTO_TEST_CASE_TEMPLATE(indexed_filters_answer_as_every_product_checked, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    check_every_filter(*store);  // the seed alone
    add_tricky_products(*store);
    check_every_filter(*store);
    // Known answers, so the oracle itself cannot drift: ASCII case folds, other bytes do not.
    BOOST_TEST(store->count_products(titled("100%")) == 1u);
    BOOST_TEST(store->count_products(titled("%")) == 2u);
    BOOST_TEST(store->count_products(titled("caf\xC3\xA9")) == 1u);
    BOOST_TEST(store->count_products(titled("caf")) == 2u);
    BOOST_TEST(store->count_products(titled("no such title at all")) == 0u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(indexes_follow_renames_moves_and_deletes, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto created = store->create_product({"Wombat Lamp", 33.0, "d", 3, {"https://x.com/a.png"}});
    BOOST_TEST_REQUIRE(created.has_value());
    const std::int64_t id = created->id;
    BOOST_TEST(ids_of(store->list_products(titled("wombat"), {0, 10})) == std::vector<std::int64_t>{id});

    core::product_patch rename;
    rename.title = "Numbat Lamp";
    BOOST_TEST_REQUIRE(store->update_product(id, rename).has_value());
    BOOST_TEST(store->count_products(titled("wombat")) == 0u);
    BOOST_TEST(ids_of(store->list_products(titled("numbat"), {0, 10})) == std::vector<std::int64_t>{id});

    core::product_patch move;
    move.price = 777.0;
    move.category_id = 5;
    BOOST_TEST_REQUIRE(store->update_product(id, move).has_value());
    core::product_filter priced;
    priced.price = 777.0;
    BOOST_TEST(ids_of(store->list_products(priced, {0, 10})) == std::vector<std::int64_t>{id});
    core::product_filter old_price;
    old_price.price = 33.0;
    BOOST_TEST(expected(*store, old_price) == ids_of(store->list_products(old_price, core::every_item)));
    core::product_filter in_five = titled("numbat");
    in_five.category_id = 5;
    BOOST_TEST(store->count_products(in_five) == 1u);
    in_five.category_id = 3;
    BOOST_TEST(store->count_products(in_five) == 0u);

    BOOST_TEST_REQUIRE(store->delete_product(id).has_value());
    BOOST_TEST(store->count_products(titled("numbat")) == 0u);
    BOOST_TEST(store->count_products(priced) == 0u);
    check_every_filter(*store);
}

// A file as storefront wrote it before the title and price indexes: the tables alone, already seeded.
BOOST_AUTO_TEST_CASE(an_sqlite_file_from_before_the_indexes_is_migrated) {
    const storefront::test::temp_dir dir;
    const std::string path = (dir.path() / "old.db").string();
    {
        storage::detail::sqlite_connection old(path, std::chrono::milliseconds(1000));
        old.exec(R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY);
CREATE TABLE categories (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, image TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE products (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, price REAL NOT NULL,
    description TEXT NOT NULL, category_id INTEGER NOT NULL REFERENCES categories(id),
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE INDEX products_by_category ON products(category_id);
CREATE TABLE product_images (
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    url TEXT NOT NULL, PRIMARY KEY (product_id, position));
INSERT INTO meta (key) VALUES ('seeded:catalogue');
INSERT INTO categories VALUES (1, 'Gadgets', 'gadgets', 'https://x.com/g.png', 1, 1, 0);
INSERT INTO products VALUES (1, 'Old Brass Telescope', 'old-brass-telescope', 120, 'd', 1, 1, 1, 0);
INSERT INTO products VALUES (2, 'Old Copper Kettle', 'old-copper-kettle', 35, 'd', 1, 1, 1, 0);
INSERT INTO products VALUES (3, 'Tin Whistle', 'tin-whistle', 5, 'd', 1, 1, 1, 0);
)sql");
    }
    storage::storage_config config;
    config.backend = "sqlite:" + path;
    {
        auto store = storage::make_catalogue_store(config);
        BOOST_TEST(
            ids_of(store->list_products(titled("OLD "), {0, 10})) == (std::vector<std::int64_t>{1, 2})
        );
        BOOST_TEST(
            ids_of(store->list_products(titled("telescope"), {0, 10})) == std::vector<std::int64_t>{1}
        );
        BOOST_TEST(store->count_products(titled("no such title")) == 0u);
        core::product_filter cheap;
        cheap.price_max = 40;
        BOOST_TEST(ids_of(store->list_products(cheap, {0, 10})) == (std::vector<std::int64_t>{2, 3}));
        const auto added = store->create_product({"Old Oak Chest", 80, "d", 1, {"https://x.com/c.png"}});
        BOOST_TEST_REQUIRE(added.has_value());
        check_every_filter(*store);
    }
    // Opened again: the index is not filled a second time (one row per product).
    auto store = storage::make_catalogue_store(config);
    BOOST_TEST(store->count_products(titled("old ")) == 3u);
    BOOST_TEST(store->count_products(titled("whistle")) == 1u);
}

// The title index catches up when title_backlog_limit products changed (or at start); until then the
// triggers only note them as stale, and a title filter finds them meanwhile: stale ids are candidates
// too, and the exact test decides. Rows written by another writer of the file (the sqlite3 shell, an
// older build) are noted the same way.
BOOST_AUTO_TEST_CASE(titles_not_yet_in_the_index_are_found_until_it_catches_up) {
    const storefront::test::temp_dir dir;
    const std::string path = (dir.path() / "shared.db").string();
    storage::storage_config config;
    config.backend = "sqlite:" + path;
    auto store = storage::make_catalogue_store(config);
    storage::detail::sqlite_connection other(path, std::chrono::milliseconds(1000));
    const auto stale_rows = [&] {
        auto s = other.prepare("SELECT count(*) FROM product_titles_stale");
        (void)s.step();
        return s.int64(0);
    };
    BOOST_TEST(stale_rows() == 0);  // the seed was indexed in its own transaction
    const auto lamp = store->create_product({"Wombat Lamp", 30, "d", 1, {"https://x.com/l.png"}});
    BOOST_TEST_REQUIRE(lamp.has_value());
    other.exec(
        "INSERT INTO products (title, slug, price, description, category_id, created_at, updated_at) "
        "VALUES ('Quokka Kettle', 'quokka-kettle', 9, 'd', 1, 1, 1);"
    );
    BOOST_TEST(stale_rows() == 2);  // the lamp and the kettle
    BOOST_TEST(store->count_products(titled("quokka")) == 1u);
    BOOST_TEST(
        ids_of(store->list_products(titled("wombat"), {0, 10})) == std::vector<std::int64_t>{lamp->id}
    );
    core::product_patch rename;
    rename.title = "Numbat Lamp";
    BOOST_TEST_REQUIRE(store->update_product(lamp->id, rename).has_value());
    BOOST_TEST(
        ids_of(store->list_products(titled("numbat"), {0, 10})) == std::vector<std::int64_t>{lamp->id}
    );
    BOOST_TEST(store->count_products(titled("wombat")) == 0u);
    BOOST_TEST_REQUIRE(store->delete_product(lamp->id).has_value());
    BOOST_TEST(store->count_products(titled("numbat")) == 0u);
    check_every_filter(*store);
    // Enough changes: a batch folds the backlog into the index.
    for (int i = 0; i < storage::detail::title_backlog_limit; ++i) {
        const auto chair =
            store->create_product({"Bilby Chair " + std::to_string(i), 45, "d", 2, {"https://x.com/b.png"}});
        BOOST_TEST_REQUIRE(chair.has_value());
    }
    BOOST_TEST(stale_rows() < storage::detail::title_backlog_limit);
    BOOST_TEST(store->count_products(titled("quokka")) == 1u);
    BOOST_TEST(store->count_products(titled("numbat")) == 0u);
    BOOST_TEST(
        store->count_products(titled("bilby chair")) ==
        static_cast<std::size_t>(storage::detail::title_backlog_limit)
    );
    check_every_filter(*store);
    // Opened again, the store catches up with whatever is left.
    store.reset();
    store = storage::make_catalogue_store(config);
    BOOST_TEST(stale_rows() == 0);
    BOOST_TEST(store->count_products(titled("quokka")) == 1u);
    check_every_filter(*store);
}

BOOST_AUTO_TEST_SUITE_END()
