// Tests for list_changes (caches/list_changes.hpp) over the memory stores: the rows a write changed since a
// revision are named and read again as the full list would write them, a category's change reaches its
// products, a deleted row is named without JSON, and a revision the store cannot tell about gives nullopt
// (then the list is reloaded whole). The patch itself is test_response_cache.cpp's.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "server/caches/list_changes.hpp"
#include "storage/factory.hpp"

using namespace storefront::server;
namespace core = storefront::core;
namespace storage = storefront::storage;

namespace {

storage::storage_config writable_memory() {
    storage::storage_config config;  // "memory"
    config.seed_read_only = false;
    return config;
}

std::string product_line(const core::product& p) {
    return p.title + " in " + p.product_category.name;
}

std::string category_line(const core::category& c) {
    return c.name;
}

std::string user_line(const core::user& u) {
    return u.email;
}

bool names(const std::vector<std::int64_t>& ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The JSON written for `id` among the changes' present rows, or "" when absent.
std::string written(const serialised_changes& changes, std::int64_t id) {
    for (std::size_t i = 0; i < changes.present.ids.size(); ++i) {
        if (changes.present.ids[i] == id) {
            return changes.present.json[i];
        }
    }
    return "";
}

struct catalogue_fixture {
    std::unique_ptr<storage::catalogue_store> store = storage::make_catalogue_store(writable_memory());

    core::category category(const std::string& name) {
        auto made = store->create_category({.name = name, .image = "https://example.com/c.png"});
        BOOST_TEST_REQUIRE(made.has_value());
        return *made;
    }
    core::product product(const std::string& title, std::int64_t category_id) {
        auto made = store->create_product(
            {.title = title,
             .price = 10,
             .description = "d",
             .category_id = category_id,
             .images = {"https://example.com/p.png"},
             .stock = 1}
        );
        BOOST_TEST_REQUIRE(made.has_value());
        return *made;
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(list_changes_unit, catalogue_fixture)

BOOST_AUTO_TEST_CASE(nothing_changed_since_the_current_revision) {
    const std::uint64_t now = store->revision();
    const auto changes = product_changes(*store, now, product_line);
    BOOST_TEST_REQUIRE(changes.has_value());
    BOOST_TEST(changes->revision == now);
    BOOST_TEST(changes->changed.empty());
    BOOST_TEST(changes->present.ids.empty());
}

BOOST_AUTO_TEST_CASE(created_and_updated_products_are_named_and_written_again) {
    const auto shoes = category("Test boots");
    const std::uint64_t before = store->revision();
    const auto boot = product("Boot", shoes.id);
    const auto clog = product("Clog", shoes.id);
    BOOST_TEST_REQUIRE(store->update_product(boot.id, {.title = std::string("Tall boot")}).has_value());

    const auto changes = product_changes(*store, before, product_line);
    BOOST_TEST_REQUIRE(changes.has_value());
    BOOST_TEST(changes->revision == store->revision());
    BOOST_TEST(std::is_sorted(changes->changed.begin(), changes->changed.end()));
    BOOST_TEST(changes->changed.size() == 2u);  // each id once, though the boot was written twice
    BOOST_TEST(written(*changes, boot.id) == "Tall boot in Test boots");
    BOOST_TEST(written(*changes, clog.id) == "Clog in Test boots");
}

BOOST_AUTO_TEST_CASE(a_renamed_category_rewrites_its_products) {
    const auto shoes = category("Test boots");
    const auto boot = product("Boot", shoes.id);
    const auto other = product("Hat", category("Test hats").id);
    const std::uint64_t before = store->revision();
    BOOST_TEST_REQUIRE(store->update_category(shoes.id, {.name = std::string("Test footwear")}).has_value());

    const auto products = product_changes(*store, before, product_line);
    BOOST_TEST_REQUIRE(products.has_value());
    BOOST_TEST(written(*products, boot.id) == "Boot in Test footwear");
    BOOST_TEST(!names(products->changed, other.id));

    const auto categories = category_changes(*store, before, category_line);
    BOOST_TEST_REQUIRE(categories.has_value());
    BOOST_TEST(categories->changed == std::vector<std::int64_t>{shoes.id});
    BOOST_TEST(written(*categories, shoes.id) == "Test footwear");
}

BOOST_AUTO_TEST_CASE(a_deleted_product_is_named_without_json) {
    const auto boot = product("Boot", category("Test boots").id);
    const std::uint64_t before = store->revision();
    BOOST_TEST_REQUIRE(store->delete_product(boot.id).has_value());
    const auto changes = product_changes(*store, before, product_line);
    BOOST_TEST_REQUIRE(changes.has_value());
    BOOST_TEST(names(changes->changed, boot.id));
    BOOST_TEST(!names(changes->present.ids, boot.id));
}

BOOST_AUTO_TEST_CASE(a_revision_the_store_cannot_tell_about_gives_nullopt) {
    // A revision past the store's: a cache of another store (one that was replaced).
    BOOST_TEST(!product_changes(*store, store->revision() + 1, product_line).has_value());
    BOOST_TEST(!category_changes(*store, store->revision() + 1, category_line).has_value());
}

BOOST_AUTO_TEST_CASE(changed_users_are_named_and_written_again) {
    auto users = storage::make_user_store(writable_memory());
    const std::uint64_t before = users->revision();
    const auto made = users->create_user(
        {.email = "reader@example.com",
         .name = "Reader",
         .password_hash = "x",
         .avatar = "",
         .role = "customer"}
    );
    BOOST_TEST_REQUIRE(made.has_value());
    const auto changes = user_changes(*users, before, user_line);
    BOOST_TEST_REQUIRE(changes.has_value());
    BOOST_TEST(changes->changed == std::vector<std::int64_t>{made->id});
    BOOST_TEST(written(*changes, made->id) == "reader@example.com");
    BOOST_TEST(!user_changes(*users, users->revision() + 1, user_line).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
