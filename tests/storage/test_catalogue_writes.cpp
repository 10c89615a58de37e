// The write contract of catalogue_store and user_store, written once for every adapter: create, find by
// id and slug, partial updates, deletes, seed protection, conflicts, atomic multi-row rules, filters with
// paging, revisions, and concurrent writers.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/errc.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using core::errc;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace catalogue_writes_file {
namespace {

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using all_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
using backends = all_backends;
using catalogue_backends = all_backends;
using user_backends = all_backends;
using file_backends = all_backends;

template <class T>
errc code_of(const core::result<T>& r) {
    return r ? errc::ok : static_cast<errc>(r.error().value());
}

core::product_draft mug(std::string title = "Blue Mug", std::int64_t category = 2) {
    return {
        std::move(title), 12.5, "A mug", category, {"https://x.com/mug.png", "https://x.com/mug-side.png"}};
}

std::vector<std::int64_t> ids_of(const std::vector<core::product>& products) {
    std::vector<std::int64_t> ids;
    for (const auto& p : products) {
        ids.push_back(p.id);
    }
    return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalogue_writes)

BOOST_AUTO_TEST_CASE_TEMPLATE(
    created_products_get_ids_slugs_and_their_category, Backend, catalogue_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto before = store->revision();
    const auto created = store->create_product(mug());
    BOOST_TEST_REQUIRE(created.has_value());
    BOOST_TEST(created->id == 52);
    BOOST_TEST(created->slug == "blue-mug");
    BOOST_TEST(created->product_category.id == 2);
    BOOST_TEST(created->product_category.name == "Electronics");
    BOOST_TEST(created->created_at > 0);
    BOOST_TEST(store->revision() > before);
    BOOST_TEST(store->find_product(52)->title == "Blue Mug");
    BOOST_TEST(store->find_product_by_slug("blue-mug")->id == 52);
    BOOST_TEST(store->count_products({}) == 52u);
    // The answer to a create is the row as stored, field for field (SQLite builds it without reading back).
    const auto stored = store->find_product(52);
    BOOST_TEST_REQUIRE(stored.has_value());
    BOOST_TEST(created->title == stored->title);
    BOOST_TEST(created->slug == stored->slug);
    BOOST_TEST(created->price == stored->price);
    BOOST_TEST(created->description == stored->description);
    BOOST_TEST(created->images == stored->images, boost::test_tools::per_element());
    BOOST_TEST(created->created_at == stored->created_at);
    BOOST_TEST(created->updated_at == stored->updated_at);
    BOOST_TEST(created->seed == stored->seed);
    BOOST_TEST(created->product_category.id == stored->product_category.id);
    BOOST_TEST(created->product_category.name == stored->product_category.name);
    BOOST_TEST(created->product_category.slug == stored->product_category.slug);
    BOOST_TEST(created->product_category.image == stored->product_category.image);
    BOOST_TEST(created->product_category.created_at == stored->product_category.created_at);
    BOOST_TEST(created->product_category.updated_at == stored->product_category.updated_at);
    BOOST_TEST((code_of(store->create_product(mug("BLUE mug!"))) == errc::conflict));  // same slug
    BOOST_TEST((code_of(store->create_product(mug("Other", 99))) == errc::invalid_reference));
    BOOST_TEST(store->count_products({}) == 52u);  // refused writes change nothing
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    a_title_without_letters_or_digits_gets_the_slug_of_its_id, Backend, catalogue_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto created = store->create_product(mug("!!! ???"));
    BOOST_TEST_REQUIRE(created.has_value());
    BOOST_TEST(created->slug == "product-" + std::to_string(created->id));
    BOOST_TEST(store->find_product_by_slug(created->slug)->id == created->id);
    BOOST_TEST(store->find_product(created->id)->slug == created->slug);
    const auto other = store->create_product(mug("***"));
    BOOST_TEST_REQUIRE(other.has_value());
    BOOST_TEST(other->slug == "product-" + std::to_string(other->id));
    BOOST_TEST(other->id != created->id);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    a_product_created_after_the_last_one_was_deleted_has_only_its_own_images, Backend, catalogue_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto first = store->create_product(mug("Two Images"));  // two images
    BOOST_TEST_REQUIRE(first.has_value());
    BOOST_TEST_REQUIRE(store->delete_product(first->id).has_value());
    auto one_image = mug("One Image");
    one_image.images = {"https://x.com/only.png"};
    const auto second = store->create_product(one_image);
    BOOST_TEST_REQUIRE(second.has_value());
    const auto stored = store->find_product(second->id);
    BOOST_TEST_REQUIRE(stored.has_value());
    BOOST_TEST(stored->images == one_image.images, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(unknown_ids_and_slugs_are_not_found, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    BOOST_TEST((code_of(store->find_product(999)) == errc::not_found));
    BOOST_TEST((code_of(store->find_product_by_slug("nope")) == errc::not_found));
    BOOST_TEST((code_of(store->related_products(999)) == errc::not_found));
    BOOST_TEST((code_of(store->find_category(0)) == errc::not_found));
    BOOST_TEST((code_of(store->find_category_by_slug("nope")) == errc::not_found));
    BOOST_TEST((code_of(store->update_product(999, {})) == errc::not_found));
    BOOST_TEST((code_of(store->delete_product(999)) == errc::not_found));
    BOOST_TEST((code_of(store->delete_category(999)) == errc::not_found));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(related_products_share_the_category, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto related = store->related_products(2);
    BOOST_TEST_REQUIRE(related.has_value());
    BOOST_TEST(related->size() == 16u);  // the public service's figure for product 2
    for (const auto& p : *related) {
        BOOST_TEST(p.product_category.id == 1);
        BOOST_TEST(p.id != 2);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(partial_updates_change_only_given_fields, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto created = store->create_product(mug());
    BOOST_TEST_REQUIRE(created.has_value());
    core::product_patch patch;
    patch.price = 20;
    patch.category_id = 4;
    const auto updated = store->update_product(created->id, patch);
    BOOST_TEST_REQUIRE(updated.has_value());
    BOOST_TEST(updated->price == 20.0);
    BOOST_TEST(updated->title == "Blue Mug");
    BOOST_TEST(updated->product_category.slug == "shoes");
    core::product_patch rename;
    rename.title = "Red Mug";
    BOOST_TEST(store->update_product(created->id, rename)->slug == "red-mug");
    BOOST_TEST((code_of(store->find_product_by_slug("blue-mug")) == errc::not_found));
    core::product_patch taken;
    taken.title = "Classic Red Pullover Hoodie";  // product 2's slug
    BOOST_TEST((code_of(store->update_product(created->id, taken)) == errc::conflict));
    core::product_patch bad_category;
    bad_category.category_id = 99;
    BOOST_TEST((code_of(store->update_product(created->id, bad_category)) == errc::invalid_reference));
    BOOST_TEST(store->find_product(created->id)->title == "Red Mug");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_rows_are_read_only, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    core::product_patch patch;
    patch.price = 1;
    BOOST_TEST((code_of(store->update_product(1, patch)) == errc::seed_read_only));
    BOOST_TEST((code_of(store->delete_product(1)) == errc::seed_read_only));
    core::category_patch rename;
    rename.name = "X";
    BOOST_TEST((code_of(store->update_category(1, rename)) == errc::seed_read_only));
    BOOST_TEST((code_of(store->delete_category(5)) == errc::seed_read_only));
    BOOST_TEST(store->find_product(1)->price == 44.0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(categories_and_their_products_change_together, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto toys = store->create_category({"Toys", "https://x.com/toys.png"});
    BOOST_TEST_REQUIRE(toys.has_value());
    BOOST_TEST(toys->id == 6);
    BOOST_TEST(toys->slug == "toys");
    BOOST_TEST((code_of(store->create_category({"TOYS", "https://x.com/t.png"})) == errc::conflict));
    const auto ball = store->create_product(mug("Ball", toys->id));
    BOOST_TEST_REQUIRE(ball.has_value());
    core::category_patch rename;
    rename.name = "Games & Toys";
    const auto renamed = store->update_category(toys->id, rename);
    BOOST_TEST_REQUIRE(renamed.has_value());
    BOOST_TEST(renamed->slug == "games-toys");
    BOOST_TEST(store->find_product(ball->id)->product_category.name == "Games & Toys");
    BOOST_TEST(store->find_category_by_slug("games-toys")->id == toys->id);
    BOOST_TEST((code_of(store->delete_category(toys->id)) == errc::in_use));
    BOOST_TEST(store->find_category(toys->id).has_value());
    BOOST_TEST(store->delete_product(ball->id).has_value());
    BOOST_TEST(store->delete_category(toys->id).has_value());
    BOOST_TEST((code_of(store->find_category(toys->id)) == errc::not_found));
    BOOST_TEST(store->list_categories().size() == 5u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(filters_page_in_id_order, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    core::product_filter filter;
    filter.price_min = 50;
    filter.price_max = 60;
    BOOST_TEST(ids_of(store->list_products(filter, {0, 2})) == (std::vector<std::int64_t>{12, 28}));
    filter = {};
    filter.category_id = 4;
    const auto shoes = store->list_products(filter, {0, 100});
    BOOST_TEST(shoes.size() == 10u);
    BOOST_TEST(shoes.front().id == 35);
    BOOST_TEST(store->count_products(filter) == 10u);
    BOOST_TEST(ids_of(store->list_products(filter, {8, 10})) == (std::vector<std::int64_t>{43, 44}));
    BOOST_TEST(store->list_products(filter, {10, 10}).empty());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(concurrent_writers_get_distinct_ids, Backend, catalogue_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    constexpr int threads = 4;
    constexpr int per_thread = 50;
    std::vector<std::thread> workers;
    std::vector<std::vector<std::int64_t>> ids(threads);
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                auto p = store->create_product(mug("Item " + std::to_string(t) + "-" + std::to_string(i)));
                if (p) {
                    ids[t].push_back(p->id);
                }
                (void)store->list_products({}, {0, 10});
            }
        });
    }
    for (auto& w : workers) {
        w.join();
    }
    std::set<std::int64_t> all;
    for (const auto& v : ids) {
        BOOST_TEST(v.size() == static_cast<std::size_t>(per_thread));
        all.insert(v.begin(), v.end());
    }
    BOOST_TEST(all.size() == static_cast<std::size_t>(threads * per_thread));
    BOOST_TEST(store->count_products({}) == 51u + threads * per_thread);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(user_writes)

BOOST_AUTO_TEST_CASE_TEMPLATE(registration_update_and_delete, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_user_store(Backend::config());
    const auto before = store->revision();
    const auto created =
        store->create_user({"new@example.com", "New", "$argon2id$x", "https://x.com/a.png", "customer"});
    BOOST_TEST_REQUIRE(created.has_value());
    BOOST_TEST(created->id == 4);
    BOOST_TEST(store->revision() > before);
    BOOST_TEST(store->email_taken("new@example.com").value());
    BOOST_TEST(store->find_credentials("new@example.com")->password_hash == "$argon2id$x");
    BOOST_TEST(
        (code_of(store->create_user({"john@mail.com", "J", "h", "https://x.com/a.png", "customer"})) ==
         errc::conflict)
    );
    core::user_patch patch;
    patch.email = "moved@example.com";
    patch.name = "Moved";
    const auto updated = store->update_user(created->id, patch);
    BOOST_TEST_REQUIRE(updated.has_value());
    BOOST_TEST(updated->name == "Moved");
    BOOST_TEST(!store->email_taken("new@example.com").value());
    BOOST_TEST(store->email_taken("moved@example.com").value());
    core::user_patch steal;
    steal.email = "maria@mail.com";
    BOOST_TEST((code_of(store->update_user(created->id, steal)) == errc::conflict));
    BOOST_TEST(store->delete_user(created->id).has_value());
    BOOST_TEST((code_of(store->find_user(created->id)) == errc::not_found));
    BOOST_TEST(!store->email_taken("moved@example.com").value());
    BOOST_TEST((code_of(store->delete_user(created->id)) == errc::not_found));
}

// A user may be stored with the case its address was sent in (--compat public): answered so, found and
// unique case-insensitively (lookups take normalised addresses).
BOOST_AUTO_TEST_CASE_TEMPLATE(emails_keep_their_case_and_stay_unique, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_user_store(Backend::config());
    const auto created = store->create_user(
        {"Mixed.Case@Example.COM", "Mixed", "$argon2id$x", "https://x.com/a.png", "customer"}
    );
    BOOST_TEST_REQUIRE(created.has_value());
    BOOST_TEST(created->email == "Mixed.Case@Example.COM");
    BOOST_TEST(store->find_user(created->id)->email == "Mixed.Case@Example.COM");
    BOOST_TEST(store->email_taken("mixed.case@example.com").value());
    BOOST_TEST(store->find_credentials("mixed.case@example.com")->profile.id == created->id);
    BOOST_TEST(
        (code_of(store->create_user({"mixed.case@example.com", "M", "h", "https://x.com/a.png", "customer"})
         ) == errc::conflict)
    );
    BOOST_TEST(
        (code_of(store->create_user({"JOHN@MAIL.COM", "J", "h", "https://x.com/a.png", "customer"})) ==
         errc::conflict)
    );
    core::user_patch recase;
    recase.email = "MIXED.case@example.com";  // the same address in another case: no conflict with itself
    BOOST_TEST(store->update_user(created->id, recase)->email == "MIXED.case@example.com");
    BOOST_TEST(store->email_taken("mixed.case@example.com").value());
    core::user_patch steal;
    steal.email = "Maria@Mail.com";
    BOOST_TEST((code_of(store->update_user(created->id, steal)) == errc::conflict));
    BOOST_TEST(store->delete_user(created->id).has_value());
    BOOST_TEST(!store->email_taken("mixed.case@example.com").value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_users_are_read_only, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_user_store(Backend::config());
    core::user_patch patch;
    patch.name = "Hacked";
    for (std::int64_t id : {1, 2, 3}) {
        BOOST_TEST((code_of(store->update_user(id, patch)) == errc::seed_user_read_only));
        BOOST_TEST((code_of(store->delete_user(id)) == errc::seed_user_read_only));
    }
    BOOST_TEST(store->find_user(1)->name != "Hacked");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(file_writes)

BOOST_AUTO_TEST_CASE_TEMPLATE(files_get_unique_names_within_a_budget, Backend, file_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_file_store(Backend::config(), 10);
    const auto first = store->add(".png", "cat.png", "image/png", "12345");
    BOOST_TEST_REQUIRE(first.has_value());
    const auto& name = (*first)->name;
    BOOST_TEST(name.size() == 36u);
    BOOST_TEST(name.substr(32) == ".png");
    const auto second = store->add(".png", "cat.png", "image/png", "12345");
    BOOST_TEST_REQUIRE(second.has_value());
    BOOST_TEST((*second)->name != name);
    BOOST_TEST((code_of(store->add(".gif", "x.gif", "image/gif", "1")) == errc::storage_full));
    const auto found = store->find(name);
    BOOST_TEST_REQUIRE(found.has_value());
    BOOST_TEST((*found)->bytes == "12345");
    BOOST_TEST((*found)->original_name == "cat.png");
    BOOST_TEST((code_of(store->find("nope.png")) == errc::not_found));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace catalogue_writes_file
