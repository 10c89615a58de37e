// What only a durable backend must do, on SQLite files: every aggregate's writes survive closing and
// reopening the file and the seed is never written again; reset_to_seed brings the seed back; readers in
// parallel with a writer see whole writes only; a file locked past the busy timeout (or unopenable) throws
// storage_unavailable instead of hanging.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/sqlite_write_lock.hpp"
#include "core/errc.hpp"
#include "storage/factory.hpp"
#include "storage/storage_error.hpp"
#include "storage/write_batch.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using storefront::test::fresh_sqlite_path;
using storefront::test::sqlite_write_lock;

namespace {

storage::storage_config sqlite_config(const std::string& path) {
    storage::storage_config c;
    c.backend = "sqlite:" + path;
    return c;
}

// Every durable store of one file, as the server holds them.
struct all_stores {
    explicit all_stores(const storage::storage_config& c)
        : catalogue(storage::make_catalogue_store(c)),
          users(storage::make_user_store(c)),
          files(storage::make_file_store(c, 1 << 20)),
          pets(storage::make_pet_store(c)),
          orders(storage::make_order_store(c)),
          pet_users(storage::make_pet_user_store(c)),
          images(storage::make_pet_image_store(c, 1 << 20)) {}

    std::unique_ptr<storage::catalogue_store> catalogue;
    std::unique_ptr<storage::user_store> users;
    std::unique_ptr<storage::file_store> files;
    std::unique_ptr<storage::pet_store> pets;
    std::unique_ptr<storage::order_store> orders;
    std::unique_ptr<storage::pet_user_store> pet_users;
    std::unique_ptr<storage::pet_image_store> images;
};

// What write_every_aggregate() left behind, to look for after a reopen.
struct written {
    std::int64_t product_id = 0;
    std::int64_t category_id = 0;
    std::int64_t user_id = 0;
    std::string file_name;
    std::int64_t image_id = 0;
};

written write_every_aggregate(all_stores& s) {
    written w;
    const auto category = s.catalogue->create_category({"Toys", "https://x.com/toys.png"});
    BOOST_TEST_REQUIRE(category.has_value());
    w.category_id = category->id;
    const auto product =
        s.catalogue->create_product({"Blue Mug", 12.5, "A mug", category->id, {"https://x.com/a.png"}});
    BOOST_TEST_REQUIRE(product.has_value());
    w.product_id = product->id;
    const auto user =
        s.users->create_user({"new@example.com", "New", "$argon2id$x", "https://x.com/a.png", "customer"});
    BOOST_TEST_REQUIRE(user.has_value());
    w.user_id = user->id;
    const auto file = s.files->add(".png", "cat.png", "image/png", std::string("\x89PNG\0\1", 6));
    BOOST_TEST_REQUIRE(file.has_value());
    w.file_name = (*file)->name;
    const auto image = s.images->add(1, {"image/gif", "GIF89a"});
    BOOST_TEST_REQUIRE(image.has_value());
    w.image_id = *image;

    BOOST_TEST(s.pets->remove(2));  // a seed pet deleted
    BOOST_TEST(s.pets->update_name_status(1, std::string("Renamed"), std::nullopt).has_value());  // changed
    core::pet added;
    added.name = "Rex";
    added.photo_urls = {"u1", "u2"};
    added.tags = {{7, "good"}, {std::nullopt, std::nullopt}};
    added.status = core::pet_status::pending;
    BOOST_TEST(s.pets->add(added).id == 11);
    BOOST_TEST(s.orders->remove(1));
    core::pet_order order;
    order.pet_id = 3;
    order.quantity = 7;
    order.status = core::order_status::approved;
    BOOST_TEST(s.orders->add(order).id == 4);
    core::pet_user_credentials renamed = *s.pet_users->find("user1");
    renamed.profile.username = "first";
    BOOST_TEST(s.pet_users->replace("user1", renamed).has_value());
    return w;
}

void expect_every_write(const all_stores& s, const written& w) {
    BOOST_TEST(s.catalogue->find_category(w.category_id)->name == "Toys");
    const auto product = s.catalogue->find_product(w.product_id);
    BOOST_TEST_REQUIRE(product.has_value());
    BOOST_TEST(product->title == "Blue Mug");
    BOOST_TEST(product->product_category.id == w.category_id);
    BOOST_TEST(product->images == (std::vector<std::string>{"https://x.com/a.png"}));
    BOOST_TEST(s.users->find_credentials("new@example.com")->password_hash == "$argon2id$x");
    BOOST_TEST(s.users->user_count() == 4u);
    const auto file = s.files->find(w.file_name);
    BOOST_TEST_REQUIRE(file.has_value());
    BOOST_TEST((*file)->bytes == std::string("\x89PNG\0\1", 6));  // binary-safe, NUL included
    BOOST_TEST((*file)->original_name == "cat.png");
    BOOST_TEST(s.images->find(1, w.image_id).value()->bytes == "GIF89a");

    BOOST_TEST(!s.pets->find(2));  // not re-seeded
    BOOST_TEST(s.pets->find(1)->name == "Renamed");
    const auto rex = s.pets->find(11);
    BOOST_TEST_REQUIRE(rex.has_value());
    BOOST_TEST(rex->photo_urls == (std::vector<std::string>{"u1", "u2"}));
    BOOST_TEST_REQUIRE(rex->tags.size() == 2u);
    BOOST_TEST(*rex->tags[0].id == 7);
    BOOST_TEST(*rex->tags[0].name == "good");
    BOOST_TEST(!rex->tags[1].id);
    BOOST_TEST(!rex->category);
    BOOST_TEST((*rex->status == core::pet_status::pending));
    BOOST_TEST(!s.orders->find(1));
    BOOST_TEST(s.orders->find(4)->quantity == 7);
    BOOST_TEST(!s.orders->find(4)->ship_date);
    BOOST_TEST(s.orders->inventory().at(core::order_status::placed) == 0);
    BOOST_TEST(!s.pet_users->find("user1"));
    BOOST_TEST(s.pet_users->find("first")->profile.id == 1);
}

void expect_the_seed(const all_stores& s) {
    BOOST_TEST(s.catalogue->count_products({}) == 51u);
    BOOST_TEST(s.catalogue->list_categories().size() == 5u);
    BOOST_TEST(s.users->user_count() == 3u);
    BOOST_TEST(s.pets->find(2)->name == "Cat 2");
    BOOST_TEST(s.pets->find(1)->name == "Cat 1");
    BOOST_TEST(!s.pets->find(11));
    BOOST_TEST(s.orders->inventory().at(core::order_status::placed) == 100);
    BOOST_TEST(s.pet_users->find("user1").has_value());
    BOOST_TEST(!s.pet_users->find("first"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sqlite_backend)

BOOST_AUTO_TEST_CASE(every_aggregate_survives_a_reopen_and_the_seed_is_not_written_again) {
    const auto config = sqlite_config(fresh_sqlite_path());
    written w;
    {
        all_stores first(config);
        w = write_every_aggregate(first);
    }  // every connection of the file is closed here
    const all_stores second(config);
    expect_every_write(second, w);
}

BOOST_AUTO_TEST_CASE(an_emptied_aggregate_stays_empty_after_a_reopen) {
    const auto config = sqlite_config(fresh_sqlite_path());
    {
        const auto pets = storage::make_pet_store(config);
        for (std::int64_t id = 1; id <= 10; ++id) {
            BOOST_TEST(pets->remove(id));
        }
    }
    const auto pets = storage::make_pet_store(config);
    const std::vector<core::pet_status> every_status{
        core::pet_status::available, core::pet_status::pending, core::pet_status::sold};
    BOOST_TEST(pets->find_by_status(every_status).empty());
}

BOOST_AUTO_TEST_CASE(reset_to_seed_restores_the_seed_of_every_aggregate) {
    const auto config = sqlite_config(fresh_sqlite_path());
    written w;
    {
        all_stores stores(config);
        w = write_every_aggregate(stores);
    }
    storage::reset_to_seed(config);
    all_stores after(config);
    expect_the_seed(after);
    BOOST_TEST(!after.catalogue->find_product(w.product_id));
    BOOST_TEST(!after.files->find(w.file_name));
    BOOST_TEST(!after.images->find(1, w.image_id));
    // And stores that were open during the reset see it, with a new catalogue revision for their caches.
    const auto before = after.catalogue->revision();
    (void)write_every_aggregate(after);
    storage::reset_to_seed(config);
    expect_the_seed(after);
    BOOST_TEST(after.catalogue->revision() > before + 1);
}

BOOST_AUTO_TEST_CASE(reset_to_seed_is_a_no_op_for_memory) {
    BOOST_CHECK_NO_THROW(storage::reset_to_seed({}));
    storage::storage_config unknown;
    unknown.backend = "mongodb";
    BOOST_CHECK_THROW(storage::reset_to_seed(unknown), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(readers_in_parallel_with_a_writer_see_whole_writes_only) {
    auto config = sqlite_config(fresh_sqlite_path());
    config.pool_size = 2;  // fewer connections than readers: some wait for the pool
    const auto pets = storage::make_pet_store(config);
    const auto catalogue = storage::make_catalogue_store(config);
    const auto product = catalogue->create_product({"Gen 0", 1, "d", 1, {"https://x.com/0.png"}});
    BOOST_TEST_REQUIRE(product.has_value());
    constexpr int generations = 60;
    std::atomic<bool> done{false};
    std::atomic<int> torn{0};
    std::atomic<int> reads{0};
    std::thread writer([&] {
        for (int g = 1; g <= generations; ++g) {
            const std::string n = std::to_string(g);
            core::pet p;
            p.id = 1;
            p.name = n;
            p.photo_urls = std::vector<std::string>(4, n);
            p.tags = std::vector<core::pet_tag>(4, core::pet_tag{g, n});
            (void)pets->replace(p);
            core::product_patch patch;
            patch.title = "Gen " + n;
            patch.images = std::vector<std::string>{"https://x.com/" + n + ".png"};
            (void)catalogue->update_product(product->id, patch);
        }
        done = true;
    });
    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            while (!done) {
                const auto p = pets->find(1);
                if (!p) {
                    ++torn;  // pet 1 is replaced, never removed
                    continue;
                }
                bool whole = p->photo_urls.size() == (p->name == "Cat 1" ? 2u : 4u);
                for (const auto& url : p->photo_urls) {
                    whole = whole && (p->name == "Cat 1" || url == p->name);
                }
                for (const auto& t : p->tags) {
                    whole = whole && (p->name == "Cat 1" || t.name == p->name);
                }
                const auto q = catalogue->find_product(product->id);
                whole = whole && q && q->images.size() == 1u &&
                        q->images[0] == "https://x.com/" + q->title.substr(4) + ".png";
                torn += whole ? 0 : 1;
                ++reads;
            }
        });
    }
    writer.join();
    for (auto& t : readers) {
        t.join();
    }
    BOOST_TEST(torn.load() == 0);
    BOOST_TEST(reads.load() > 0);
    BOOST_TEST(pets->find(1)->name == std::to_string(generations));
}

BOOST_AUTO_TEST_CASE(opening_a_file_locked_past_the_busy_timeout_throws_storage_unavailable) {
    const std::string path = fresh_sqlite_path();
    auto config = sqlite_config(path);
    config.busy_timeout = std::chrono::milliseconds(200);
    const sqlite_write_lock lock(path);  // another process's write lock
    const auto start = std::chrono::steady_clock::now();
    BOOST_CHECK_THROW((void)storage::make_catalogue_store(config), storage::storage_unavailable);
    BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(5)));
}

BOOST_AUTO_TEST_CASE(a_write_on_a_file_locked_past_the_busy_timeout_throws_and_reads_go_on) {
    const std::string path = fresh_sqlite_path();
    auto config = sqlite_config(path);
    config.busy_timeout = std::chrono::milliseconds(200);
    const auto catalogue = storage::make_catalogue_store(config);
    const auto pets = storage::make_pet_store(config);
    {
        const sqlite_write_lock lock(path);  // another process's write lock
        const auto before = catalogue->revision();
        BOOST_CHECK_THROW(
            (void)catalogue->create_category({"Toys", "https://x.com/t.png"}), storage::storage_unavailable
        );
        BOOST_CHECK_THROW((void)pets->remove(1), storage::storage_unavailable);
        BOOST_TEST(catalogue->revision() == before);       // nothing was written
        BOOST_TEST(catalogue->count_products({}) == 51u);  // WAL: readers are not blocked by a writer
        BOOST_TEST(pets->find(1).has_value());
    }
    BOOST_TEST(catalogue->create_category({"Toys", "https://x.com/t.png"}).has_value());  // lock released
}

// The writer thread's batch on a jammed file: one busy timeout for the whole batch, not one per write (128
// writes would otherwise wait 128 timeouts before any of them is answered 503).
BOOST_AUTO_TEST_CASE(a_batch_on_a_file_locked_past_the_busy_timeout_fails_once_not_once_per_write) {
    const std::string path = fresh_sqlite_path();
    auto config = sqlite_config(path);
    config.busy_timeout = std::chrono::milliseconds(200);
    const auto catalogue = storage::make_catalogue_store(config);
    const auto before = catalogue->revision();
    {
        const sqlite_write_lock lock(path);  // another process's write lock
        const auto start = std::chrono::steady_clock::now();
        storage::write_batch batch;
        for (int i = 0; i < 10; ++i) {
            BOOST_CHECK_THROW(
                (void)catalogue->create_category({"Jammed " + std::to_string(i), "https://x.com/t.png"}),
                storage::storage_unavailable
            );
        }
        BOOST_CHECK_THROW(batch.commit(), storage::storage_unavailable);
        BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)));
    }
    BOOST_TEST(catalogue->revision() == before);  // nothing was written
    storage::write_batch after;                   // the lock released: the next batch writes
    BOOST_TEST(catalogue->create_category({"Jammed 0", "https://x.com/t.png"}).has_value());
    after.commit();
    BOOST_TEST(catalogue->revision() == before + 1);
}

BOOST_AUTO_TEST_CASE(a_file_that_cannot_be_opened_throws_storage_unavailable) {
    const auto config = sqlite_config((storefront::test::sqlite_test_dir() / "absent-dir" / "x.db").string());
    BOOST_CHECK_THROW((void)storage::make_pet_store(config), storage::storage_unavailable);
}

BOOST_AUTO_TEST_SUITE_END()
