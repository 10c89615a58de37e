// Group commit on PostgreSQL (issue 21): the writes of one aggregate queued together share one transaction
// and one NOTIFY; a write that answers an error or throws affects only its own caller, and another
// instance learns every row of the batch from that one notification.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/errc.hpp"
#include "core/model.hpp"
#include "postgres/aggregate.hpp"

namespace core = storefront::core;
namespace detail = storefront::storage::detail;
using namespace std::chrono_literals;
using storefront::test::pg_backend;

namespace {

constexpr int queued_writers = 16;
constexpr int answers_error = 3;  // this writer's change answers errc::conflict after its INSERT
constexpr int throws = 7;         // this one throws after its INSERT

// Inserts category `name` (its slug is the name) and answers its id.
std::int64_t insert_category(detail::pg_connection& db, const std::string& name) {
    return db
        .exec(
            "INSERT INTO categories (name, slug, image, created_at, updated_at) "
            "VALUES ($1, $1, 'https://x.com/c.png', 0, 0) RETURNING id",
            detail::pg_params().add(name)
        )
        .int64(0, 0);
}

core::category category_with(std::int64_t id) {
    core::category c;
    c.id = id;
    return c;
}

template <class Predicate>
bool eventually(Predicate&& done, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pg_group_commit)

BOOST_AUTO_TEST_CASE(queued_writes_share_one_commit_and_one_notification) {
    if (!pg_backend::available()) {
        return;
    }
    const storefront::storage::pg_target target{pg_backend::config().backend, {}};
    detail::pg_aggregate writer(target, 4, "catalogue", {}, false);
    detail::pg_aggregate other(target, 2, "catalogue", {}, true);  // another instance, listening
    std::this_thread::sleep_for(300ms);                            // its LISTEN is in place
    const auto since = other.revision();
    const auto writer_since = writer.revision();
    const auto commits_before = writer.commits();

    // The first write holds the batch open until every other writer has queued behind it.
    std::mutex mutex;
    std::condition_variable released;
    bool go = false;
    std::atomic<bool> started{false};
    std::thread first([&] {
        (void)writer.write_created(core::row_table::categories, [&](detail::pg_connection& db) {
            const auto id = insert_category(db, "first");
            started = true;
            std::unique_lock lock(mutex);
            released.wait(lock, [&] { return go; });
            return core::result<core::category>(category_with(id));
        });
    });
    BOOST_TEST_REQUIRE(eventually([&] { return started.load(); }, 5s));

    std::vector<std::optional<core::result<core::category>>> answers(queued_writers);
    std::vector<std::string> thrown(queued_writers);
    std::vector<std::thread> writers;
    for (int i = 0; i < queued_writers; ++i) {
        writers.emplace_back([&, i] {
            try {
                answers[i] =
                    writer.write_created(core::row_table::categories, [&](detail::pg_connection& db) {
                        const auto id = insert_category(db, "queued-" + std::to_string(i));
                        if (i == answers_error) {
                            return core::result<core::category>(core::errc::conflict);
                        }
                        if (i == throws) {
                            throw std::runtime_error("this write fails");
                        }
                        return core::result<core::category>(category_with(id));
                    });
            } catch (const std::exception& e) {
                thrown[i] = e.what();
            }
        });
    }
    BOOST_TEST_REQUIRE(eventually([&] { return writer.queued_writes() == queued_writers; }, 5s));
    {
        std::lock_guard lock(mutex);
        go = true;
    }
    released.notify_all();
    first.join();
    for (auto& w : writers) {
        w.join();
    }

    BOOST_TEST(writer.commits() == commits_before + 2);  // the first write's batch, then all the others
    auto db = writer.connection();
    std::vector<std::int64_t> kept;
    for (int i = 0; i < queued_writers; ++i) {
        BOOST_TEST_CONTEXT("writer " << i) {
            const auto stored = (*db).exec(
                "SELECT id FROM categories WHERE slug = $1",
                detail::pg_params().add("queued-" + std::to_string(i))
            );
            if (i == answers_error || i == throws) {
                BOOST_TEST(stored.empty());  // its savepoint was rolled back, the batch went on
                BOOST_TEST((i == throws) == (thrown[i] == "this write fails"));
                BOOST_TEST((i == answers_error) == (answers[i].has_value() && !answers[i]->has_value()));
            } else {
                BOOST_TEST_REQUIRE(answers[i].has_value());
                BOOST_TEST_REQUIRE(answers[i]->has_value());
                BOOST_TEST(stored.size() == 1);
                BOOST_TEST(stored.int64(0, 0) == (*answers[i])->id);
                kept.push_back((*answers[i])->id);
            }
        }
    }
    // The other instance hears each batch's one notification naming its rows: the first and the 14 kept.
    BOOST_TEST(eventually(
        [&] {
            const auto changes = other.changes_since(since);
            return changes && changes->rows.size() == kept.size() + 1;
        },
        3s
    ));
    const auto changes = other.changes_since(since);
    BOOST_TEST_REQUIRE(changes.has_value());
    for (const auto id : kept) {
        BOOST_TEST_CONTEXT("row " << id) {
            BOOST_TEST(std::any_of(
                changes->rows.begin(),
                changes->rows.end(),
                [&](const core::row_change& r) {
                    return r.table == core::row_table::categories && r.id == id;
                }
            ));
        }
    }
    // The writer's own journal has each row once: recorded at commit, its echo skipped.
    std::this_thread::sleep_for(300ms);
    const auto own = writer.changes_since(writer_since);
    BOOST_TEST_REQUIRE(own.has_value());
    BOOST_TEST(own->rows.size() == kept.size() + 1);
}

BOOST_AUTO_TEST_SUITE_END()
