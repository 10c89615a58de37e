// Pet store surface stores: seed data, id assignment, replace/update/remove, inventory, username keys
// and renames, the image byte budget, and concurrent writers.
#include <algorithm>
#include <thread>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/password.hpp"
#include "storage/factory.hpp"
#include "storage/pet_store.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;

namespace {

std::vector<std::int64_t> ids_of(const std::vector<core::pet>& pets) {
    std::vector<std::int64_t> ids;
    for (const auto& p : pets) {
        ids.push_back(p.id);
    }
    return ids;
}

core::pet named(std::int64_t id, std::string name) {
    core::pet p;
    p.id = id;
    p.name = std::move(name);
    return p;
}

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using pet_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;

}  // namespace

BOOST_AUTO_TEST_SUITE(pet_stores)

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_pets_and_finders, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto pets = storage::make_pet_store(Backend::config());
    const auto one = pets->find(1);
    BOOST_TEST_REQUIRE(one.has_value());
    BOOST_TEST(one->name == "Cat 1");
    BOOST_TEST(*one->category->name == "Cats");
    BOOST_TEST(one->photo_urls == (std::vector<std::string>{"url1", "url2"}));
    BOOST_TEST(*one->tags.at(1).name == "tag2");
    BOOST_TEST(*pets->find(10)->category->name == "Rabbits");
    BOOST_TEST(!pets->find(11));
    BOOST_TEST(
        ids_of(pets->find_by_status({core::pet_status::available})) ==
        (std::vector<std::int64_t>{1, 2, 4, 7, 8, 9, 10})
    );
    BOOST_TEST(
        ids_of(pets->find_by_status({core::pet_status::sold, core::pet_status::pending})) ==
        (std::vector<std::int64_t>{3, 5, 6})
    );
    BOOST_TEST(ids_of(pets->find_by_tags({"tag1"})) == (std::vector<std::int64_t>{1, 4, 7}));
    BOOST_TEST(ids_of(pets->find_by_tags({"none"})).empty());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(pet_writes, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto pets = storage::make_pet_store(Backend::config());
    BOOST_TEST(pets->count() == 10u);
    BOOST_TEST(pets->add(named(0, "new")).id == 11);
    BOOST_TEST(pets->add(named(0, "newer")).id == 12);
    BOOST_TEST(pets->count() == 12u);
    BOOST_TEST(pets->add(named(3, "replaced")).name == "replaced");  // POST with an existing id replaces
    BOOST_TEST(pets->find(3)->name == "replaced");
    BOOST_TEST(!pets->replace(named(99, "x")));
    BOOST_TEST(!pets->find(99));
    BOOST_TEST(pets->replace(named(12, "again"))->name == "again");
    const auto updated = pets->update_name_status(1, std::nullopt, core::pet_status::sold);
    BOOST_TEST(updated->name == "Cat 1");
    BOOST_TEST((*updated->status == core::pet_status::sold));
    BOOST_TEST(!pets->update_name_status(99, std::string("x"), std::nullopt));
    BOOST_TEST(pets->add_photo_url(1, "/img")->photo_urls.size() == 3u);
    BOOST_TEST(!pets->add_photo_url(99, "/img"));
    BOOST_TEST(pets->remove(12));
    BOOST_TEST(!pets->remove(12));
    BOOST_TEST(pets->count() == 11u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(orders_and_inventory, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto orders = storage::make_order_store(Backend::config());
    auto inventory = orders->inventory();
    BOOST_TEST(inventory.at(core::order_status::placed) == 100);
    BOOST_TEST(inventory.at(core::order_status::approved) == 50);
    BOOST_TEST(inventory.at(core::order_status::delivered) == 50);
    core::pet_order o;
    o.pet_id = 2;
    o.quantity = 5;
    o.status = core::order_status::delivered;
    BOOST_TEST(orders->count() == 3u);
    const auto stored = orders->add(o);
    BOOST_TEST(stored.id == 4);
    BOOST_TEST(orders->count() == 4u);
    BOOST_TEST(orders->find(4)->quantity == 5);
    BOOST_TEST(orders->inventory().at(core::order_status::delivered) == 55);
    BOOST_TEST(orders->remove(1));
    BOOST_TEST(!orders->remove(1));
    BOOST_TEST(orders->inventory().at(core::order_status::placed) == 0);  // every status stays listed
}

BOOST_AUTO_TEST_CASE_TEMPLATE(users_by_username, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto users = storage::make_pet_user_store(Backend::config());
    const auto user3 = users->find("user3");
    BOOST_TEST_REQUIRE(user3.has_value());
    BOOST_TEST(user3->profile.id == 3);
    BOOST_TEST(*user3->profile.user_status == 3);
    BOOST_TEST(*users->find("user4")->profile.user_status == 1);
    BOOST_TEST(*users->find("user10")->profile.email == "email10@test.com");
    BOOST_TEST(core::verify_password("XXXXXXXXXXX", user3->password_hash));
    BOOST_TEST(!users->find("User3"));  // case-sensitive

    core::pet_user_credentials alice;
    alice.profile.username = "alice";
    BOOST_TEST(users->count() == 10u);
    BOOST_TEST(users->add(alice).id == 11);
    BOOST_TEST(users->count() == 11u);
    alice.profile.username = "alice2";
    BOOST_TEST(users->replace("alice", alice)->id == 11);  // renamed, id kept
    BOOST_TEST(!users->find("alice"));
    alice.profile.username = "user1";
    BOOST_TEST((users->replace("alice2", alice).error() == core::errc::conflict));
    BOOST_TEST((users->replace("nobody", alice).error() == core::errc::not_found));
    BOOST_TEST(users->remove("alice2"));
    BOOST_TEST(!users->remove("alice2"));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(images_with_budget, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto images = storage::make_pet_image_store(Backend::config(), 10);
    const auto first = images->add(1, {"image/png", "12345"});
    BOOST_TEST_REQUIRE(first.has_value());
    const auto second = images->add(2, {"image/gif", "abcde"});
    BOOST_TEST_REQUIRE(second.has_value());
    BOOST_TEST(*first != *second);
    BOOST_TEST((images->add(1, {"image/png", "x"}).error() == core::errc::storage_full));
    BOOST_TEST(images->find(1, *first).value()->bytes == "12345");
    BOOST_TEST(!images->find(2, *first));  // ids belong to their pet
    const auto held = images->find(2, *second);
    images->remove_for_pet(2);
    BOOST_TEST(!images->find(2, *second));
    BOOST_TEST(held.value()->bytes == "abcde");                      // a reader keeps its copy alive
    BOOST_TEST(images->add(1, {"image/png", "12345"}).has_value());  // the budget was freed
}

BOOST_AUTO_TEST_CASE_TEMPLATE(concurrent_writers_get_distinct_ids, Backend, pet_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto pets = storage::make_pet_store(Backend::config());
    std::vector<std::thread> threads;
    std::vector<std::vector<std::int64_t>> seen(4);
    for (std::size_t t = 0; t < seen.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i) {
                seen[t].push_back(pets->add(named(0, "p")).id);
                (void)pets->find_by_status({core::pet_status::available});
            }
        });
    }
    for (auto& th : threads) {
        th.join();
    }
    std::vector<std::int64_t> all;
    for (const auto& s : seen) {
        all.insert(all.end(), s.begin(), s.end());
    }
    std::sort(all.begin(), all.end());
    BOOST_TEST((std::adjacent_find(all.begin(), all.end()) == all.end()));
    BOOST_TEST(all.size() == 800u);
    BOOST_TEST(all.back() == 810);
}

BOOST_AUTO_TEST_SUITE_END()
