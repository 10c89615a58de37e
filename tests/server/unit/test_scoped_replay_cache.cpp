// Tests for scoped_replay_cache_of (caches/scoped_replay_cache.hpp) and replay_scope over the memory stores:
// a write to another table, or to another item of the same table, keeps a kept answer (the same entry is
// hit), a write the answer reads drops it, an answer a write overtook is never kept, and a store that cannot
// tell what changed drops everything.
#include <cstdint>
#include <memory>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/api/store/routes.hpp"
#include "server/caches/scoped_replay_cache.hpp"
#include "storage/factory.hpp"

using namespace storefront::server;
namespace storage = storefront::storage;
namespace core = storefront::core;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace scoped_replay_cache_file {
namespace {

// What transport keeps per request, reduced to what the cache reads.
struct test_entry {
    std::string request_head;
    replay_scope scope;
};

std::size_t owned_bytes(const test_entry& entry) {
    return entry.request_head.size();
}

using cache = scoped_replay_cache_of<test_entry>;

struct data_set {
    std::unique_ptr<storage::catalogue_store> catalogue = storage::make_catalogue_store(config());
    std::unique_ptr<storage::user_store> users = storage::make_user_store(config());
    shared_data_revision revision{*catalogue, *users};

    static storage::storage_config config() {
        storage::storage_config c;  // "memory"
        c.seed_read_only = false;
        return c;
    }

    std::int64_t add_product(const std::string& title) {
        auto created = catalogue->create_product(
            {.title = title,
             .price = 5,
             .description = "d",
             .category_id = 1,
             .images = {"https://e.com/a.png"}}
        );
        BOOST_TEST_REQUIRE(created.has_value());
        return created->id;
    }
    std::int64_t add_user(const std::string& email) {
        auto created = users->create_user(
            {.email = email, .name = "U", .password_hash = "x", .avatar = "", .role = "customer"}
        );
        BOOST_TEST_REQUIRE(created.has_value());
        return created->id;
    }
};

// The scope of an answer to `target` of the /api/v1 GET route `pattern`, as its row states what it reads.
replay_scope scope_of(std::string_view pattern, std::string_view target) {
    for (const route& r : store_routes().routes) {
        if (r.verb == http::verb::get && r.pattern == pattern) {
            BOOST_TEST_REQUIRE(r.reuse.until_data_changes, pattern);
            return storefront::server::scope_of(r.reuse.reads, target);
        }
    }
    BOOST_FAIL("no GET row " << pattern);
    throw;
}

std::string head_of(const std::string& target) {
    return "GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n";
}

// Keeps an answer to `target` (matched by `pattern`) as of now, and returns it.
std::shared_ptr<const test_entry> keep_now(
    cache& c, const data_set& data, const std::string& pattern, const std::string& target
) {
    const std::uint64_t answered_at = data.revision.current();
    auto entry = std::make_shared<const test_entry>(test_entry{head_of(target), scope_of(pattern, target)});
    c.keep(entry, answered_at, data.revision);
    return entry;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scoped_replay_cache_unit)

BOOST_AUTO_TEST_CASE(the_scope_is_what_the_route_row_reads) {
    using core::row_table;
    const auto page = scope_of("/api/v1/products", "/api/v1/products?offset=0&limit=10");
    BOOST_TEST(touches(page, {row_table::products, 99}));
    BOOST_TEST(touches(page, {row_table::categories, 1}));  // a product embeds its category
    BOOST_TEST(!touches(page, {row_table::users, 1}));

    const auto item = scope_of("/api/v1/products/{id}", "/api/v1/products/7?select=title");
    BOOST_TEST(touches(item, {row_table::products, 7}));
    BOOST_TEST(!touches(item, {row_table::products, 8}));
    BOOST_TEST(touches(item, {row_table::categories, 3}));
    BOOST_TEST(!touches(item, {row_table::users, 7}));

    const auto categories = scope_of("/api/v1/categories", "/api/v1/categories");
    BOOST_TEST(!touches(categories, {row_table::products, 1}));
    BOOST_TEST(touches(categories, {row_table::categories, 1}));
    const auto category_products =
        scope_of("/api/v1/categories/{id}/products", "/api/v1/categories/2/products");
    BOOST_TEST(touches(category_products, {row_table::products, 1}));
    BOOST_TEST(touches(category_products, {row_table::categories, 5}));

    const auto user = scope_of("/api/v1/users/{id}", "/api/v1/users/4");
    BOOST_TEST(touches(user, {row_table::users, 4}));
    BOOST_TEST(!touches(user, {row_table::users, 5}));
    BOOST_TEST(!touches(user, {row_table::products, 4}));

    // A slug names no id: any row of its tables; a row that states nothing: every table.
    const auto by_slug = scope_of("/api/v1/products/slug/{slug}", "/api/v1/products/slug/a-hat");
    BOOST_TEST(touches(by_slug, {row_table::products, 123}));
    const auto other = storefront::server::scope_of(rows_read{}, "/healthz");
    BOOST_TEST(touches(other, {row_table::users, 1}));
    BOOST_TEST(touches(other, {row_table::products, 1}));
}

BOOST_AUTO_TEST_CASE(a_write_to_another_table_keeps_the_answer) {
    data_set data;
    cache c;
    const auto page = keep_now(c, data, "/api/v1/products", "/api/v1/products?offset=0&limit=10");
    const auto users = keep_now(c, data, "/api/v1/users", "/api/v1/users");
    BOOST_TEST_REQUIRE(c.find(head_of("/api/v1/products?offset=0&limit=10"), data.revision) == page);

    data.add_user("a@example.com");  // a registration: the product page still stands
    BOOST_TEST(c.find(head_of("/api/v1/products?offset=0&limit=10"), data.revision) == page);
    BOOST_TEST(c.find(head_of("/api/v1/users"), data.revision) == nullptr);  // the users list went

    data.add_product("Kept apart");  // a product: the page goes (its total moved)
    BOOST_TEST(c.find(head_of("/api/v1/products?offset=0&limit=10"), data.revision) == nullptr);
    BOOST_TEST(c.entries().size() == 0u);
}

BOOST_AUTO_TEST_CASE(a_write_to_another_item_keeps_the_item) {
    data_set data;
    cache c;
    const std::int64_t first = data.add_product("First");
    const std::int64_t second = data.add_product("Second");
    const std::string first_target = "/api/v1/products/" + std::to_string(first);
    const std::string second_target = "/api/v1/products/" + std::to_string(second);
    const auto kept_first = keep_now(c, data, "/api/v1/products/{id}", first_target);
    const auto kept_second = keep_now(c, data, "/api/v1/products/{id}", second_target);

    BOOST_TEST_REQUIRE(
        data.catalogue->update_product(second, {.title = std::string("Second, renamed")}).has_value()
    );
    BOOST_TEST(c.find(head_of(first_target), data.revision) == kept_first);
    BOOST_TEST(c.find(head_of(second_target), data.revision) == nullptr);  // the row it shows changed
    BOOST_TEST(c.entries().size() == 1u);

    // Kept again after the write, it stands at the new revision.
    const auto again = keep_now(c, data, "/api/v1/products/{id}", second_target);
    BOOST_TEST(c.find(head_of(second_target), data.revision) == again);

    // A category write may change every product (each embeds its category): both go.
    BOOST_TEST_REQUIRE(
        data.catalogue->create_category({.name = "Hats", .image = "https://e.com/h.png"}).has_value()
    );
    BOOST_TEST(c.find(head_of(first_target), data.revision) == nullptr);
    BOOST_TEST(c.find(head_of(second_target), data.revision) == nullptr);
}

BOOST_AUTO_TEST_CASE(an_answer_a_write_overtook_is_not_kept) {
    data_set data;
    cache c;
    const std::uint64_t answered_at = data.revision.current();
    data.add_product("In between");  // lands while the answer is being made
    c.keep(
        std::make_shared<const test_entry>(test_entry{
            head_of("/api/v1/products"), scope_of("/api/v1/products", "/api/v1/products")}),
        answered_at,
        data.revision
    );
    BOOST_TEST(c.find(head_of("/api/v1/products"), data.revision) == nullptr);
    BOOST_TEST(c.entries().size() == 0u);

    // Even one of another table: the label it would get is past what it was answered from.
    const std::uint64_t users_at = data.revision.current();
    data.add_product("Another");
    c.keep(
        std::make_shared<const test_entry>(test_entry{
            head_of("/api/v1/users"), scope_of("/api/v1/users", "/api/v1/users")}),
        users_at,
        data.revision
    );
    BOOST_TEST(c.find(head_of("/api/v1/users"), data.revision) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_store_that_cannot_tell_drops_everything) {
    // The stores' revisions, with changes nobody can name (a reset, a notification without rows).
    class untold final : public data_revision {
      public:
        explicit untold(const data_revision& real) : real_(real) {}
        std::uint64_t current() const override { return real_.current(); }
        store_revisions stores() const override { return real_.stores(); }
        std::optional<data_changes> changes_since(const store_revisions&) const override {
            return std::nullopt;
        }

      private:
        const data_revision& real_;
    };
    data_set data;
    const untold revision(data.revision);
    cache c;
    const std::uint64_t answered_at = revision.current();
    c.keep(
        std::make_shared<const test_entry>(test_entry{
            head_of("/api/v1/users"), scope_of("/api/v1/users", "/api/v1/users")}),
        answered_at,
        revision
    );
    BOOST_TEST_REQUIRE(c.find(head_of("/api/v1/users"), revision) != nullptr);
    data.add_product("Elsewhere");
    BOOST_TEST(c.find(head_of("/api/v1/users"), revision) == nullptr);
    BOOST_TEST(c.entries().size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace scoped_replay_cache_file
