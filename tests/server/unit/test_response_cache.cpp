// Tests for fragment_list's incremental snapshots: after creates, updates and deletes (first, middle, last,
// and random batches over thousands of items) pages, items and the whole list equal a full reload; pages
// the write did not touch keep their cached bytes (and so their ETag), touched ones change; a write
// re-serialises only the rows it changed; a source that cannot tell falls back to a full reload; a write's
// refresh does not queue behind another thread's patch; creates past the end copy a small tail chunk only.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "server/caches/response_cache.hpp"

using namespace storefront;
using namespace storefront::server;

namespace {

// A source of rows with a revision per write and a log of which id each revision changed, as a store's
// journal answers; `forget` makes it unable to tell (as after a reset).
struct fake_source {
    std::map<std::int64_t, std::string> rows;
    std::vector<std::int64_t> log;  // log[r - 2] is the id revision r changed (revision 1: the start)
    std::uint64_t known_from = 1;   // changes_since answers only for revisions >= this
    std::uint64_t full_loads = 0;

    std::uint64_t revision() const { return 1 + log.size(); }
    void put(std::int64_t id, std::string json) {
        rows[id] = std::move(json);
        log.push_back(id);
    }
    void erase(std::int64_t id) {
        rows.erase(id);
        log.push_back(id);
    }
    void forget() {
        log.push_back(0);
        known_from = revision();
    }

    serialised_items load() {
        ++full_loads;
        serialised_items out;
        for (const auto& [id, json] : rows) {
            out.ids.push_back(id);
            out.json.push_back(json);
        }
        return out;
    }
    std::optional<serialised_changes> changes(std::uint64_t since) const {
        if (since < known_from) {
            return std::nullopt;
        }
        serialised_changes out;
        out.revision = revision();
        std::map<std::int64_t, bool> touched;
        for (auto r = since + 1; r <= revision(); ++r) {
            touched[log[r - 2]] = true;
        }
        for (const auto& [id, unused] : touched) {
            out.changed.push_back(id);
            if (const auto row = rows.find(id); row != rows.end()) {
                out.present.ids.push_back(id);
                out.present.json.push_back(row->second);
            }
        }
        return out;
    }
    fragment_list list() {
        return fragment_list(
            [this] { return revision(); },
            [this] { return load(); },
            [this](std::uint64_t since) { return changes(since); }
        );
    }
};

std::string row(std::int64_t id, int version = 0) {
    return R"({"id":)" + std::to_string(id) + R"(,"v":)" + std::to_string(version) + "}";
}

fake_source seeded(std::int64_t n) {
    fake_source s;
    for (std::int64_t id = 1; id <= n; ++id) {
        s.rows[id] = row(id);
    }
    return s;
}

// What a full reload of `s` answers.
std::string expected_page(const fake_source& s, std::size_t offset, std::size_t limit) {
    std::string out = "[";
    std::size_t i = 0;
    for (const auto& [id, json] : s.rows) {
        if (i >= offset && i < offset + limit) {
            out += (out.size() > 1 ? "," : "") + json;
        }
        ++i;
    }
    return out + "]";
}

// Every page of 10 and a few odd ones, every item and the whole list equal a full reload of `s`.
void check_equals_reload(fragment_list& list, const fake_source& s) {
    const auto snap = list.current();
    BOOST_TEST_REQUIRE(snap->size() == s.rows.size());
    for (std::size_t offset = 0; offset <= s.rows.size() + 10; offset += 10) {
        BOOST_TEST_CONTEXT("offset " << offset) {
            BOOST_TEST(snap->page({offset, 10})->bytes() == expected_page(s, offset, 10));
        }
    }
    BOOST_TEST(snap->page({3, 7})->bytes() == expected_page(s, 3, 7));
    BOOST_TEST(snap->all()->bytes() == expected_page(s, 0, s.rows.size()));
    std::size_t i = 0;
    for (const auto& [id, json] : s.rows) {
        BOOST_TEST_CONTEXT("id " << id) {
            const std::string* item = snap->item(id);
            BOOST_TEST_REQUIRE(item != nullptr);
            BOOST_TEST(*item == json);
            BOOST_TEST(snap->at(i) == json);
        }
        ++i;
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(response_cache)

BOOST_AUTO_TEST_CASE(writes_at_the_first_a_middle_and_the_last_item_equal_a_full_reload) {
    auto s = seeded(1000);
    auto list = s.list();
    check_equals_reload(list, s);
    BOOST_TEST(s.full_loads == 1u);
    const auto step = [&](auto write) {
        write();
        check_equals_reload(list, s);
    };
    step([&] { s.put(1, row(1, 1)); });        // update of the first
    step([&] { s.put(500, row(500, 1)); });    // of a middle one
    step([&] { s.put(1000, row(1000, 1)); });  // of the last
    step([&] { s.erase(1); });                 // deletes
    step([&] { s.erase(500); });
    step([&] { s.erase(1000); });
    step([&] { s.put(1001, row(1001)); });  // creates at the end, and in gaps
    step([&] { s.put(500, row(500, 2)); });
    step([&] { s.put(1, row(1, 2)); });
    step([&] {  // several at once, with a row created and deleted in between
        s.put(2000, row(2000));
        s.erase(2000);
        s.put(7, row(7, 3));
        s.erase(8);
    });
    BOOST_TEST(s.full_loads == 1u);                // never reloaded
    for (std::int64_t id = 1; id <= 1100; ++id) {  // emptied and filled again
        if (s.rows.contains(id)) {
            s.erase(id);
        }
    }
    check_equals_reload(list, s);
    step([&] { s.put(3, row(3)); });
    BOOST_TEST(s.full_loads == 1u);
}

BOOST_AUTO_TEST_CASE(creates_past_the_end_copy_a_small_tail_and_keep_the_chunks_few) {
    auto s = seeded(1000);  // 7 chunks of 128 and one of 104
    auto list = s.list();
    const std::size_t chunks_at_start = list.current()->chunks.size();
    // A writer that creates a row and deletes it again: each create gets a chunk of its own (the last one
    // is not copied), each delete empties it again, so the snapshot keeps its chunks.
    for (std::int64_t id = 1001; id <= 1040; ++id) {
        s.put(id, row(id));
        check_equals_reload(list, s);
        BOOST_TEST(list.current()->chunks.size() == chunks_at_start + 1);
        BOOST_TEST(list.current()->chunks.back()->ids.size() == 1u);
        s.erase(id);
        check_equals_reload(list, s);
        BOOST_TEST(list.current()->chunks.size() == chunks_at_start);
    }
    // Creates that stay: the tail chunk takes them until it holds a quarter chunk, then a new one starts.
    for (std::int64_t id = 2001; id <= 2200; ++id) {
        s.put(id, row(id));
        check_equals_reload(list, s);
    }
    const auto snap = list.current();
    for (std::size_t k = chunks_at_start; k < snap->chunks.size(); ++k) {
        BOOST_TEST(snap->chunks[k]->ids.size() <= fragment_list::chunk_items / 4 + 1);
    }
    BOOST_TEST(snap->chunks.size() <= chunks_at_start + 200 / (fragment_list::chunk_items / 4) + 1);
    BOOST_TEST(s.full_loads == 1u);
}

BOOST_AUTO_TEST_CASE(random_batches_equal_a_full_reload) {
    auto s = seeded(3000);  // chunks split and empty out
    auto list = s.list();
    std::mt19937 random(21);
    for (int batch = 0; batch < 60; ++batch) {
        BOOST_TEST_CONTEXT("batch " << batch) {
            const int writes = 1 + static_cast<int>(random() % 40);
            for (int w = 0; w < writes; ++w) {
                const auto id = static_cast<std::int64_t>(1 + random() % 3500);
                if (random() % 3 == 0) {
                    s.erase(id);
                } else {
                    s.put(id, row(id, batch));
                }
            }
            // A burst of 300 ids in a row grows one chunk well past its size.
            if (batch == 30) {
                for (std::int64_t id = 3501; id <= 3800; ++id) {
                    s.put(id, row(id));
                }
            }
            check_equals_reload(list, s);
        }
    }
    BOOST_TEST(s.full_loads == 1u);
}

BOOST_AUTO_TEST_CASE(a_write_reserialises_only_the_rows_it_changed) {
    auto s = seeded(5000);
    auto list = s.list();
    (void)list.current();
    BOOST_TEST(list.rows_serialised() == 5000u);
    s.put(2500, row(2500, 1));
    (void)list.current();
    BOOST_TEST(list.rows_serialised() == 5001u);
    s.put(5001, row(5001));
    s.erase(1);
    (void)list.current();
    BOOST_TEST(list.rows_serialised() == 5002u);  // the created row; the deleted one is not serialised
    (void)list.current();                         // no write: nothing
    BOOST_TEST(list.rows_serialised() == 5002u);
    BOOST_TEST(s.full_loads == 1u);
}

BOOST_AUTO_TEST_CASE(untouched_pages_keep_their_bytes_and_etag_touched_ones_change) {
    auto s = seeded(100);
    auto list = s.list();
    const auto before = list.current();
    const auto first = before->page({0, 10});
    const auto middle = before->page({50, 10});
    const auto last = before->page({90, 10});
    const std::string first_tag(first->etag(content_coding::identity));
    const std::string middle_tag(middle->etag(content_coding::identity));

    s.put(95, row(95, 1));  // an update: only the page holding it changes
    auto after = list.current();
    BOOST_TEST(after->page({0, 10}) == first);  // the same cached object: hashed and compressed once
    BOOST_TEST(after->page({50, 10}) == middle);
    BOOST_TEST(after->page({90, 10}) != last);
    BOOST_TEST(after->page({90, 10})->etag(content_coding::identity) != last->etag(content_coding::identity));

    s.erase(55);  // a delete moves every later item: pages from it on change, earlier ones stay
    after = list.current();
    BOOST_TEST(after->page({0, 10}) == first);
    BOOST_TEST(after->page({0, 10})->etag(content_coding::identity) == first_tag);
    BOOST_TEST(after->page({50, 10})->etag(content_coding::identity) != middle_tag);
    BOOST_TEST(after->page({40, 10})->bytes() == expected_page(s, 40, 10));

    const auto first_now = after->page({0, 10});
    s.put(101, row(101));  // a create at the end keeps every full page before it
    after = list.current();
    BOOST_TEST(after->page({0, 10}) == first_now);
    BOOST_TEST(after->page({90, 10})->bytes() == expected_page(s, 90, 10));
}

BOOST_AUTO_TEST_CASE(a_source_that_cannot_tell_is_reloaded_whole) {
    auto s = seeded(300);
    auto list = s.list();
    (void)list.current();
    s.put(10, row(10, 1));
    s.forget();  // as after a reset: the journal cannot answer for revisions before this
    s.put(20, row(20, 1));
    check_equals_reload(list, s);
    BOOST_TEST(s.full_loads == 2u);
    s.put(30, row(30, 1));
    check_equals_reload(list, s);
    BOOST_TEST(s.full_loads == 2u);  // and patched again after
}

BOOST_AUTO_TEST_CASE(a_list_without_a_change_reader_reloads_as_before) {
    auto s = seeded(50);
    fragment_list list([&] { return s.revision(); }, [&] { return s.load(); });
    check_equals_reload(list, s);
    s.put(5, row(5, 1));
    check_equals_reload(list, s);
    BOOST_TEST(s.full_loads == 2u);
}

BOOST_AUTO_TEST_CASE(a_write_s_refresh_does_not_wait_for_another_thread_s_patch) {
    auto s = seeded(50);
    std::promise<void> entered;
    std::promise<void> release;
    const std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> hold{false};
    fragment_list list(
        [&] { return s.revision(); },
        [&] { return s.load(); },
        [&](std::uint64_t since) {
            if (hold.exchange(false)) {  // the first patch after `hold` waits until released
                entered.set_value();
                released.wait();
            }
            return s.changes(since);
        }
    );
    (void)list.current();
    s.put(5, row(5, 1));
    hold = true;
    std::once_flag released_once;
    const auto let_go = [&] { std::call_once(released_once, [&] { release.set_value(); }); };
    std::thread patching([&] { (void)list.current(); });
    entered.get_future().wait();
    // Were the refresh to wait for the patch, this would let it go after 2 s (a failure, not a hang).
    std::thread deadline([&] {
        std::this_thread::sleep_for(std::chrono::seconds(2));
        let_go();
    });
    const auto start = std::chrono::steady_clock::now();
    list.refresh_unless_busy();  // another thread is patching: returns at once instead of queueing
    BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(1)));
    let_go();
    patching.join();
    deadline.join();
    BOOST_TEST(list.current_if_loaded() != nullptr);  // that thread's patch made it current
    s.put(6, row(6, 1));
    list.refresh_unless_busy();  // nobody else patching: it patches
    BOOST_TEST(list.current_if_loaded() != nullptr);
    check_equals_reload(list, s);
    BOOST_TEST(s.full_loads == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
