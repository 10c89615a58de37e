// Group commit of concurrent writes (issue 21): many writers at once all get their own answer and their rows,
// on every backend; on SQLite, the changes queued together share one transaction, where a change that answers
// an error or throws affects only its own caller, and a commit that fails reaches every caller of the batch.
// A writer thread's storage::write_batch (SQLite and PostgreSQL): its writes answer at once and stand only
// once it commits.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/eventually.hpp"
#include "common/pg_server.hpp"
#include "core/errc.hpp"
#include "settle.hpp"
#include "sqlite/database.hpp"
#include "storage/event_log.hpp"
#include "storage/factory.hpp"
#include "storage/write_batch.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
namespace detail = storefront::storage::detail;
using core::errc;

namespace {

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::pg_instance;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using all_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
using durable_backends = boost::mpl::list<sqlite_backend, pg_backend>;

core::product_draft product(const std::string& title) {
    return {title, 9.5, "d", 2, {"https://x.com/a.png"}};
}

template <class T>
errc code_of(const core::result<T>& r) {
    return r ? errc::ok : static_cast<errc>(r.error().value());
}

// A SQLite file with its catalogue seeded, and the sqlite_database every store of that file shares.
struct sqlite_file {
    storage::storage_config config = sqlite_backend::config();
    std::unique_ptr<storage::catalogue_store> catalogue = storage::make_catalogue_store(config);
    std::shared_ptr<detail::sqlite_database> db =
        detail::sqlite_database::open(config.backend.substr(std::string("sqlite:").size()), config);

    // Runs every job on its own thread while the write connection is leased, so that they all queue, then
    // lets them go: they form one batch. Returns what each job threw.
    std::vector<std::exception_ptr> one_batch(const std::vector<std::function<void()>>& jobs) {
        std::vector<std::exception_ptr> thrown(jobs.size());
        std::vector<std::thread> threads;
        {
            auto lease = db->writer();
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                threads.emplace_back([&, i] {
                    try {
                        jobs[i]();
                    } catch (...) {
                        thrown[i] = std::current_exception();
                    }
                });
            }
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (db->queued_writes() < jobs.size() && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            BOOST_TEST_REQUIRE(db->queued_writes() == jobs.size());
        }
        for (auto& t : threads) {
            t.join();
        }
        return thrown;
    }

    bool has_meta(const std::string& key) const {
        auto r = db->reader();
        auto s = r->prepare("SELECT 1 FROM meta WHERE key = ?1");
        s.bind(1, std::string_view(key));
        return s.step() == detail::sqlite_statement::step_result::row;
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(group_commit)

BOOST_AUTO_TEST_CASE_TEMPLATE(sixty_four_concurrent_creators_all_get_distinct_ids, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto before = store->count_products({});
    constexpr int threads = 64;
    constexpr int per_thread = 8;
    std::vector<std::vector<std::int64_t>> ids(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                const auto p =
                    store->create_product(product("C " + std::to_string(t) + "-" + std::to_string(i)));
                if (p) {
                    ids[t].push_back(p->id);
                }
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
    BOOST_TEST(store->count_products({}) == before + threads * per_thread);
    for (const auto id : all) {
        BOOST_TEST_CONTEXT("product " << id) {
            BOOST_TEST(store->find_product(id).has_value());
        }
    }
}

BOOST_AUTO_TEST_CASE(a_single_writer_commits_at_once_in_a_batch_of_its_own) {
    sqlite_file f;
    const auto commits = f.db->commits();
    BOOST_TEST(f.catalogue->create_product(product("Alone")).has_value());
    BOOST_TEST(f.db->commits() == commits + 1);
}

BOOST_AUTO_TEST_CASE(an_error_or_an_exception_in_a_batch_reaches_only_its_own_caller) {
    sqlite_file f;
    const auto before = f.catalogue->count_products({});
    const auto commits = f.db->commits();
    const auto revision = f.catalogue->revision();
    std::vector<core::result<core::product>> created(4, errc::not_found);
    core::result<void> refused;
    const auto thrown = f.one_batch({
        [&] { created[0] = f.catalogue->create_product(product("Batch A")); },
        [&] { created[1] = f.catalogue->create_product(product("Batch B")); },
        [&] { created[2] = f.catalogue->create_product(product("Batch Twin")); },
        [&] { created[3] = f.catalogue->create_product(product("Batch Twin")); },  // same slug: conflict
        [&] {
            f.db->write([](detail::sqlite_connection& w) {
                w.exec("INSERT INTO meta (key) VALUES ('thrown')");
                throw std::runtime_error("boom");
            });
        },
        [&] {
            refused = f.db->write([](detail::sqlite_connection& w) -> core::result<void> {
                w.exec("INSERT INTO meta (key) VALUES ('refused')");
                return errc::conflict;
            });
        },
    });
    BOOST_TEST(f.db->commits() == commits + 1);  // one batch, one commit
    for (std::size_t i = 0; i < thrown.size(); ++i) {
        BOOST_TEST_CONTEXT("job " << i) {
            BOOST_TEST((thrown[i] != nullptr) == (i == 4));
        }
    }
    BOOST_CHECK_THROW(std::rethrow_exception(thrown[4]), std::runtime_error);
    BOOST_TEST(created[0].has_value());
    BOOST_TEST(created[1].has_value());
    BOOST_TEST((code_of(created[2]) == errc::conflict) != (code_of(created[3]) == errc::conflict));
    BOOST_TEST((created[2].has_value() != created[3].has_value()));
    BOOST_TEST((code_of(refused) == errc::conflict));
    BOOST_TEST(!f.has_meta("thrown"));
    BOOST_TEST(!f.has_meta("refused"));
    BOOST_TEST(f.catalogue->count_products({}) == before + 3);
    BOOST_TEST(f.catalogue->revision() == revision + 3);  // the kept creates only
}

BOOST_AUTO_TEST_CASE(a_commit_that_fails_reaches_every_caller_of_the_batch) {
    sqlite_file f;
    const auto before = f.catalogue->count_products({});
    const auto commits = f.db->commits();
    const auto revision = f.catalogue->revision();
    const auto thrown = f.one_batch({
        [&] { (void)f.catalogue->create_product(product("Never Acknowledged")); },
        [&] {
            // A foreign key checked at COMMIT only: the change itself succeeds, the commit cannot.
            f.db->write([](detail::sqlite_connection& w) {
                w.exec("PRAGMA defer_foreign_keys = ON");
                w.exec("INSERT INTO product_images (product_id, position, url) VALUES (999999, 0, 'x')");
            });
        },
    });
    for (std::size_t i = 0; i < thrown.size(); ++i) {
        BOOST_TEST_CONTEXT("job " << i) {
            BOOST_TEST((thrown[i] != nullptr));
        }
    }
    BOOST_TEST(f.db->commits() == commits);
    BOOST_TEST(f.catalogue->count_products({}) == before);
    BOOST_TEST(f.catalogue->revision() == revision);
    BOOST_TEST(f.catalogue->create_product(product("After")).has_value());  // the connection is usable again
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(write_batch_of_a_thread)

// The memory backend's writes do not join a batch (the server's write lane is for SQLite and PostgreSQL):
// a write inside one stands at once, whatever becomes of the batch.
BOOST_AUTO_TEST_CASE(memory_writes_inside_a_batch_stand_by_themselves) {
    auto store = storage::make_catalogue_store(memory_backend::config());
    const auto before = store->count_products({});
    {
        storage::write_batch batch;
        BOOST_TEST(store->create_product(product("Stands Alone")).has_value());
        BOOST_TEST(store->count_products({}) == before + 1);
    }  // not committed
    BOOST_TEST(store->count_products({}) == before + 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    writes_answer_at_once_and_are_seen_by_no_reader_until_the_batch_commits, Backend, durable_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto before = store->count_products({});
    storefront::test::settle(*store);  // PostgreSQL: the listener's start moves the revision once
    const auto revision = store->revision();
    std::set<std::int64_t> ids;
    {
        storage::write_batch batch;
        for (int i = 0; i < 3; ++i) {
            const auto created = store->create_product(product("Batched " + std::to_string(i)));
            BOOST_TEST_REQUIRE(created.has_value());
            ids.insert(created->id);
        }
        const auto twin = store->create_product(product("Batched 1"));  // same slug: conflict
        BOOST_TEST((code_of(twin) == errc::conflict));
        BOOST_TEST(store->count_products({}) == before);  // readers see the last commit
        BOOST_TEST(store->revision() == revision);        // caches are not told yet
        batch.commit();
    }
    BOOST_TEST(ids.size() == 3U);
    BOOST_TEST(store->count_products({}) == before + 3);
    BOOST_TEST(store->revision() == revision + 3);
    for (const auto id : ids) {
        BOOST_TEST(store->find_product(id).has_value());
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_batch_that_is_not_committed_leaves_nothing, Backend, durable_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto store = storage::make_catalogue_store(Backend::config());
    const auto before = store->count_products({});
    storefront::test::settle(*store);  // PostgreSQL: the listener's start moves the revision once
    const auto revision = store->revision();
    {
        storage::write_batch batch;
        BOOST_TEST(store->create_product(product("Abandoned")).has_value());
    }
    BOOST_TEST(store->count_products({}) == before);
    BOOST_TEST(store->revision() == revision);
    BOOST_TEST(store->create_product(product("Abandoned")).has_value());  // not taken: never written
}

BOOST_AUTO_TEST_CASE(a_sqlite_batch_is_one_commit) {
    sqlite_file f;
    const auto commits = f.db->commits();
    {
        storage::write_batch batch;
        for (int i = 0; i < 3; ++i) {
            BOOST_TEST(f.catalogue->create_product(product("One Commit " + std::to_string(i))).has_value());
        }
        BOOST_TEST(f.db->commits() == commits);
        batch.commit();
    }
    BOOST_TEST(f.db->commits() == commits + 1);
}

BOOST_AUTO_TEST_CASE(a_commit_that_fails_undoes_every_write_of_the_batch) {
    sqlite_file f;
    const auto before = f.catalogue->count_products({});
    const auto revision = f.catalogue->revision();
    {
        storage::write_batch batch;
        BOOST_TEST(f.catalogue->create_product(product("Lost With The Batch")).has_value());
        f.db->write([](detail::sqlite_connection& w) {
            w.exec("PRAGMA defer_foreign_keys = ON");
            w.exec("INSERT INTO product_images (product_id, position, url) VALUES (999999, 0, 'x')");
        });
        BOOST_CHECK_THROW(batch.commit(), std::exception);
    }
    BOOST_TEST(f.catalogue->count_products({}) == before);
    BOOST_TEST(f.catalogue->revision() == revision);
    BOOST_TEST(f.catalogue->create_product(product("Lost With The Batch")).has_value());
}

BOOST_AUTO_TEST_CASE(another_thread_s_write_waits_for_the_batch_and_commits_after_it) {
    sqlite_file f;
    const auto before = f.catalogue->count_products({});
    std::atomic<bool> written{false};
    std::thread other;
    {
        storage::write_batch batch;
        BOOST_TEST(f.catalogue->create_product(product("First In Batch")).has_value());
        other =
            std::thread([&] { written = f.catalogue->create_product(product("Second Alone")).has_value(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        BOOST_TEST(!written.load());  // the write connection is the batch's until it commits
        batch.commit();
    }
    other.join();
    BOOST_TEST(written.load());
    BOOST_TEST(f.catalogue->count_products({}) == before + 2);
}

BOOST_AUTO_TEST_CASE(a_write_lease_inside_the_batch_is_refused_instead_of_waiting_for_itself) {
    sqlite_file f;
    storage::write_batch batch;
    BOOST_TEST(f.catalogue->create_product(product("Holding The Writer")).has_value());
    BOOST_CHECK_THROW((void)f.db->writer(), std::logic_error);
    BOOST_CHECK_THROW(storage::write_batch{}, std::logic_error);  // batches do not nest
    batch.commit();
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(write_batch_on_postgresql)

BOOST_AUTO_TEST_CASE(batches_of_two_threads_run_side_by_side_each_on_its_own_connection) {
    if (!pg_backend::available()) {
        return;
    }
    auto store = storage::make_catalogue_store(pg_backend::config());
    const auto before = store->count_products({});
    storage::write_batch mine;
    BOOST_TEST_REQUIRE(store->create_product(product("Held Open")).has_value());
    // The server's write lane runs several PostgreSQL writer threads: one's open batch must not hold up
    // another's (each borrows a connection of its own).
    auto other = std::async(std::launch::async, [&] {
        storage::write_batch theirs;
        const auto created = store->create_product(product("Committed Beside"));
        theirs.commit();
        return created;
    });
    BOOST_TEST_REQUIRE((other.wait_for(std::chrono::seconds(5)) == std::future_status::ready));
    const auto beside = other.get();
    BOOST_TEST_REQUIRE(beside.has_value());
    BOOST_TEST(store->count_products({}) == before + 1);  // the other batch's row, not the open one's
    BOOST_TEST(store->find_product(beside->id).has_value());
    mine.commit();
    BOOST_TEST(store->count_products({}) == before + 2);
}

BOOST_AUTO_TEST_CASE(concurrent_appends_to_the_shared_event_log_share_commits_and_number_every_event_once) {
    if (!pg_backend::available()) {
        return;
    }
    // The change feed's appends of concurrent writers commit together (issue 46): every appender still gets
    // its own id once committed, a data set's ids stay 1, 2, … without gaps, each appender's in its order.
    const auto log = storage::make_event_log(pg_backend::config());
    BOOST_TEST_REQUIRE(log != nullptr);
    constexpr std::size_t writers = 16;
    constexpr std::size_t each = 8;
    std::vector<std::vector<std::uint64_t>> ids(writers);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < writers; ++t) {
        threads.emplace_back([&, t] {
            for (std::size_t i = 0; i < each; ++i) {
                const std::string data = "{\"writer\":" + std::to_string(t) + "}";
                ids[t].push_back(log->append("batched", "product.created", data, std::nullopt, 1).id);
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    std::set<std::uint64_t> all;
    for (const auto& mine : ids) {
        BOOST_TEST(std::is_sorted(mine.begin(), mine.end()));
        all.insert(mine.begin(), mine.end());
    }
    BOOST_TEST(all.size() == writers * each);
    const auto stored = log->after("batched", 0, writers * each);
    BOOST_TEST_REQUIRE(stored.size() == writers * each);
    for (std::size_t i = 0; i < stored.size(); ++i) {
        BOOST_TEST(stored[i].id == i + 1);
    }
    BOOST_TEST(log->after("other", 0, 10).empty());  // a data set numbers only its own
}

BOOST_AUTO_TEST_CASE(another_instance_hears_the_rows_of_a_batch_once_it_commits) {
    if (!pg_backend::available()) {
        return;
    }
    using namespace std::chrono_literals;
    const auto dsn = storefront::test::create_test_database();
    const auto a = storage::make_catalogue_store(pg_instance(dsn, "a"));
    const auto b = storage::make_catalogue_store(pg_instance(dsn, "b"));
    BOOST_TEST_REQUIRE(storefront::test::eventually([&] { return b->revision() > 1; }, 5s));  // listening
    const auto since = b->revision();
    std::set<std::int64_t> ids;
    {
        storage::write_batch batch;
        for (int i = 0; i < 3; ++i) {
            const auto created = a->create_product(product("Heard " + std::to_string(i)));
            BOOST_TEST_REQUIRE(created.has_value());
            ids.insert(created->id);
        }
        std::this_thread::sleep_for(200ms);
        BOOST_TEST(b->revision() == since);  // nothing is told before the commit
        batch.commit();
    }
    BOOST_TEST_REQUIRE(storefront::test::eventually([&] { return b->revision() >= since + 3; }, 2s));
    const auto changes = b->changes_since(since);
    BOOST_TEST_REQUIRE(changes.has_value());  // the rows are named, so b's caches patch rather than reload
    std::set<std::int64_t> heard;
    for (const auto& row : changes->rows) {
        heard.insert(row.id);
    }
    BOOST_TEST((heard == ids));
    for (const auto id : ids) {
        BOOST_TEST(b->find_product(id).has_value());
    }
}

BOOST_AUTO_TEST_SUITE_END()
