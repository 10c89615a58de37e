// changes_since, written once for every adapter: each committed write names its row (refused ones name
// nothing), a reset or a revision too old cannot be answered, and on PostgreSQL another instance's writes
// are named through its notifications. Plus the journal's own bounds.

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/change_journal.hpp"
#include "common/eventually.hpp"
#include "settle.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using namespace std::chrono_literals;
using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::skipped;
using storefront::test::sqlite_backend;

using storefront::test::eventually;
using storefront::test::settle;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace changed_rows_file {
namespace {

using all_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
using durable_backends = boost::mpl::list<sqlite_backend, pg_backend>;
using named_row = std::pair<core::row_table, std::int64_t>;

const char* table_name(core::row_table table) {
    switch (table) {
        case core::row_table::products:
            return "products";
        case core::row_table::categories:
            return "categories";
        case core::row_table::users:
            return "users";
    }
    return "?";
}

// Rows as text ("categories 6, products 52"), each once, sorted: what the cases compare (and print).
std::string text_of(const std::set<named_row>& rows) {
    std::string out;
    for (const auto& [table, id] : rows) {
        out += (out.empty() ? "" : ", ") + std::string(table_name(table)) + ' ' + std::to_string(id);
    }
    return out;
}

// The distinct rows changed since `since`, or "unknown" when the store cannot tell.
template <class Store>
std::string named_since(const Store& store, std::uint64_t since) {
    const auto changes = store.changes_since(since);
    if (!changes) {
        return "unknown";
    }
    std::set<named_row> rows;
    for (const auto& row : changes->rows) {
        rows.emplace(row.table, row.id);
    }
    return text_of(rows);
}

core::product_draft draft(std::string title, std::int64_t category = 1) {
    return {std::move(title), 9.5, "changed rows", category, {"https://x.com/a.png"}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(changed_rows)

// What the cached lists read after a batch of writes: the rows named, whatever their order and repeats.
BOOST_AUTO_TEST_CASE_TEMPLATE(
    find_products_reads_the_named_rows_that_exist_in_id_order, Backend, all_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto made = store->create_product(draft("Found Together"));
    BOOST_TEST_REQUIRE(made.has_value());
    const std::int64_t gone = made->id + 1000000;
    const auto found = store->find_products({made->id, 3, gone, 1, made->id});
    BOOST_TEST_REQUIRE(found.size() == 3U);
    BOOST_TEST(found[0].id == 1);
    BOOST_TEST(found[1].id == 3);
    BOOST_TEST(found[2].id == made->id);
    BOOST_TEST(found[2].title == "Found Together");
    BOOST_TEST(found[2].product_category.id == 1);
    BOOST_TEST(found[2].images.size() == 1U);
    const auto one = store->find_product(3);
    BOOST_TEST_REQUIRE(one.has_value());
    BOOST_TEST(found[1].title == one->title);
    BOOST_TEST(store->find_products({}).empty());
    BOOST_TEST(store->find_products({gone}).empty());
    // One id, the read-back after a lone write (SQLite answers it with its by-id statement): the same row.
    const auto alone = store->find_products({made->id});
    BOOST_TEST_REQUIRE(alone.size() == 1U);
    BOOST_TEST(alone[0].title == "Found Together");
    BOOST_TEST(alone[0].images == found[2].images);
    BOOST_TEST(alone[0].created_at == found[2].created_at);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(catalogue_writes_name_their_rows, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    settle(*store);
    const auto since = store->revision();
    BOOST_TEST(named_since(*store, since) == "");

    const auto product = store->create_product(draft("Journal Mug"));
    BOOST_TEST_REQUIRE(product.has_value());
    BOOST_TEST(named_since(*store, since) == text_of({{core::row_table::products, product->id}}));
    BOOST_TEST(store->changes_since(since)->revision <= store->revision());

    const auto after_create = store->revision();
    BOOST_TEST(!store->create_product(draft("JOURNAL mug")).has_value());  // slug taken: refused
    core::product_patch seed_patch;
    seed_patch.price = 1.0;
    BOOST_TEST(!store->update_product(1, seed_patch).has_value());  // seed rows are read-only
    // Nothing new (on PostgreSQL the create's own notification may name the product again).
    const auto refused = named_since(*store, after_create);
    BOOST_TEST((refused.empty() || refused == text_of({{core::row_table::products, product->id}})), refused);

    const auto category = store->create_category({"Journal Toys", "https://x.com/t.png"});
    BOOST_TEST_REQUIRE(category.has_value());
    core::product_patch move;
    move.category_id = category->id;
    BOOST_TEST_REQUIRE(store->update_product(product->id, move).has_value());
    core::category_patch rename;
    rename.name = "Journal Games";
    BOOST_TEST_REQUIRE(store->update_category(category->id, rename).has_value());
    BOOST_TEST_REQUIRE(store->delete_product(product->id).has_value());
    BOOST_TEST_REQUIRE(store->delete_category(category->id).has_value());
    BOOST_TEST(
        named_since(*store, after_create) ==
        text_of({{core::row_table::products, product->id}, {core::row_table::categories, category->id}})
    );
    BOOST_TEST(named_since(*store, store->revision()) == "");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(user_writes_name_their_rows, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_user_store(Backend::config());
    settle(*store);
    const auto since = store->revision();
    const auto user =
        store->create_user({"journal@example.com", "J", "h", "https://x.com/a.png", "customer"});
    BOOST_TEST_REQUIRE(user.has_value());
    core::user_patch patch;
    patch.name = "Journal";
    BOOST_TEST_REQUIRE(store->update_user(user->id, patch).has_value());
    BOOST_TEST(!store->delete_user(1).has_value());  // a seed user: refused
    BOOST_TEST(named_since(*store, since) == text_of({{core::row_table::users, user->id}}));
    const auto after_update = store->revision();
    BOOST_TEST_REQUIRE(store->delete_user(user->id).has_value());
    BOOST_TEST(named_since(*store, after_update) == text_of({{core::row_table::users, user->id}}));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_reset_to_the_seed_cannot_be_named, Backend, durable_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto config = Backend::config();
    auto catalogue = storage::make_catalogue_store(config);
    auto users = storage::make_user_store(config);
    settle(*catalogue);
    settle(*users);
    const auto catalogue_since = catalogue->revision();
    const auto users_since = users->revision();
    storage::reset_to_seed(config);
    BOOST_TEST(eventually([&] { return !catalogue->changes_since(catalogue_since); }, 2s));
    BOOST_TEST(eventually([&] { return !users->changes_since(users_since); }, 2s));
}

BOOST_AUTO_TEST_CASE(another_postgresql_instance_s_writes_are_named) {
    if (!pg_backend::available()) {
        return;
    }
    const auto dsn = pg_backend::config().backend;
    // Each "instance" with a connection string of its own: its own pool and LISTEN connection.
    storage::storage_config a_config;
    a_config.backend = dsn + " application_name='a'";
    storage::storage_config b_config;
    b_config.backend = dsn + " application_name='b'";
    const auto a = storage::make_catalogue_store(a_config);
    const auto b = storage::make_catalogue_store(b_config);
    settle(*a);
    settle(*b);
    const auto since = b->revision();
    const auto a_since = a->revision();
    const auto created = a->create_product(draft("Elsewhere"));
    BOOST_TEST_REQUIRE(created.has_value());
    const auto category = a->create_category({"Elsewhere Things", "https://x.com/t.png"});
    BOOST_TEST_REQUIRE(category.has_value());
    const auto expected =
        text_of({{core::row_table::products, created->id}, {core::row_table::categories, category->id}});
    BOOST_TEST(eventually([&] { return named_since(*b, since) == expected; }, 2s));
    // The writer hears its own two notifications as well (on its own LISTEN connection, about when b does)
    // and skips them: each row once in its journal, so a cache re-serialises it once.
    std::this_thread::sleep_for(300ms);
    const auto own = a->changes_since(a_since);
    BOOST_TEST_REQUIRE(own.has_value());
    BOOST_TEST(own->rows.size() == 2u);
    BOOST_TEST(a->revision() == a_since + 2);

    const auto users_a = storage::make_user_store(a_config);
    const auto users_b = storage::make_user_store(b_config);
    settle(*users_b);
    const auto users_since = users_b->revision();
    const auto user =
        users_a->create_user({"elsewhere@example.com", "E", "h", "https://x.com/a.png", "customer"});
    BOOST_TEST_REQUIRE(user.has_value());
    BOOST_TEST(eventually(
        [&] {
            return named_since(*users_b, users_since) == text_of({{core::row_table::users, user->id}});
        },
        2s
    ));
}

BOOST_AUTO_TEST_CASE(the_journal_answers_within_its_capacity_and_never_past_an_unknown_change) {
    storage::detail::change_journal journal;
    const auto start = journal.revision();
    BOOST_TEST(journal.changes_since(start)->rows.empty());
    BOOST_TEST(!journal.changes_since(start + 1));  // a revision it never had
    journal.record(core::row_table::products, 7);
    journal.record(core::row_table::categories, 2);
    const auto two = journal.changes_since(start);
    BOOST_TEST_REQUIRE(two.has_value());
    BOOST_TEST(two->revision == start + 2);
    BOOST_TEST_REQUIRE(two->rows.size() == 2u);
    BOOST_TEST(two->rows[0].id == 7);
    BOOST_TEST((two->rows[1].table == core::row_table::categories));
    BOOST_TEST(journal.changes_since(start + 1)->rows.size() == 1u);

    const auto before_unknown = journal.revision();
    journal.record_unknown();
    journal.record(core::row_table::products, 8);
    BOOST_TEST(!journal.changes_since(start));
    BOOST_TEST(!journal.changes_since(before_unknown));
    BOOST_TEST(journal.changes_since(before_unknown + 1)->rows.size() == 1u);  // after it: fine again

    const auto full = journal.revision();
    for (std::size_t i = 0; i < storage::detail::change_journal::capacity; ++i) {
        journal.record(core::row_table::users, static_cast<std::int64_t>(i));
    }
    BOOST_TEST(journal.changes_since(full)->rows.size() == storage::detail::change_journal::capacity);
    BOOST_TEST(!journal.changes_since(full - 1));  // one revision further back is forgotten
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace changed_rows_file
