// Tests for replay_cache_of (caches/replay_cache.hpp): an answer kept for exact header bytes is a hit while
// the data revision stands and a miss once it moves; an answer that a write overtook is never kept; entries,
// head size and bytes stay bounded.
#include <cstddef>
#include <memory>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/caches/replay_cache.hpp"

using namespace storefront::server;

namespace {

// What transport keeps per request, reduced to what the cache reads: the key and the bytes owned.
struct test_entry {
    std::string request_head;
    std::string body;
};

std::size_t owned_bytes(const test_entry& entry) {
    return entry.request_head.size() + entry.body.size();
}

using cache = replay_cache_of<test_entry>;

std::shared_ptr<const test_entry> entry_of(std::string head, std::string body = "[]") {
    return std::make_shared<const test_entry>(test_entry{std::move(head), std::move(body)});
}

const std::string products_head = "GET /api/v1/products HTTP/1.1\r\nHost: a\r\n\r\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(replay_cache_unit)

BOOST_AUTO_TEST_CASE(a_kept_answer_is_a_hit_while_the_revision_stands) {
    cache c;
    BOOST_TEST(c.find(products_head, 5) == nullptr);
    const auto kept = entry_of(products_head, "[1]");
    c.keep(kept, 5, 5);
    const auto hit = c.find(products_head, 5);
    BOOST_TEST_REQUIRE(hit != nullptr);
    BOOST_TEST(hit == kept);  // the same bytes, not a copy
    BOOST_TEST(c.find(products_head, 5)->body == "[1]");
}

BOOST_AUTO_TEST_CASE(only_the_exact_header_bytes_hit) {
    cache c;
    c.keep(entry_of(products_head), 1, 1);
    BOOST_TEST(c.find("GET /api/v1/products HTTP/1.1\r\nHost: b\r\n\r\n", 1) == nullptr);
    BOOST_TEST(c.find("GET /api/v1/products HTTP/1.1\r\nhost: a\r\n\r\n", 1) == nullptr);
    BOOST_TEST(c.find(products_head, 1) != nullptr);
}

BOOST_AUTO_TEST_CASE(a_write_makes_every_entry_a_miss_and_drops_it) {
    cache c;
    c.keep(entry_of(products_head), 7, 7);
    c.keep(entry_of("GET /api/v1/categories HTTP/1.1\r\n\r\n"), 7, 7);
    BOOST_TEST(c.size() == 2u);
    BOOST_TEST(c.find(products_head, 8) == nullptr);  // the revision moved: a write was answered
    BOOST_TEST(c.size() == 0u);
    BOOST_TEST(c.bytes() == 0u);
    // Nothing of revision 7 comes back, even when asked with the old revision.
    BOOST_TEST(c.find(products_head, 7) == nullptr);
}

BOOST_AUTO_TEST_CASE(an_answer_a_write_overtook_is_not_kept) {
    cache c;
    // Read at revision 3, finished after a write moved the data to 4: it may describe the old data.
    c.keep(entry_of(products_head), 3, 4);
    BOOST_TEST(c.size() == 0u);
    BOOST_TEST(c.find(products_head, 3) == nullptr);
    BOOST_TEST(c.find(products_head, 4) == nullptr);
}

BOOST_AUTO_TEST_CASE(keeping_at_a_newer_revision_drops_the_older_entries) {
    cache c;
    c.keep(entry_of("GET /a HTTP/1.1\r\n\r\n"), 1, 1);
    c.keep(entry_of("GET /b HTTP/1.1\r\n\r\n"), 2, 2);
    BOOST_TEST(c.size() == 1u);
    BOOST_TEST(c.find("GET /a HTTP/1.1\r\n\r\n", 2) == nullptr);
    BOOST_TEST(c.find("GET /b HTTP/1.1\r\n\r\n", 2) != nullptr);
}

BOOST_AUTO_TEST_CASE(a_long_request_head_is_not_kept) {
    cache c;
    const std::string long_head =
        "GET /x HTTP/1.1\r\nCookie: " + std::string(cache::max_request_head, 'c') + "\r\n\r\n";
    c.keep(entry_of(long_head), 1, 1);
    BOOST_TEST(c.find(long_head, 1) == nullptr);
    BOOST_TEST(c.size() == 0u);
}

BOOST_AUTO_TEST_CASE(entries_and_bytes_stay_bounded) {
    cache c;
    for (std::size_t i = 0; i < cache::max_entries + 10; ++i) {
        c.keep(entry_of("GET /p/" + std::to_string(i) + " HTTP/1.1\r\n\r\n"), 1, 1);
        BOOST_TEST_REQUIRE(c.size() <= cache::max_entries);
    }
    // Over the bound everything was dropped and refilled: the newest entry is there.
    BOOST_TEST(
        c.find("GET /p/" + std::to_string(cache::max_entries + 9) + " HTTP/1.1\r\n\r\n", 1) != nullptr
    );

    // One answer over a 64th of the byte budget is not kept; many smaller ones never exceed the budget.
    c.keep(entry_of("GET /big HTTP/1.1\r\n\r\n", std::string(cache::max_bytes / 64 + 1, 'x')), 1, 1);
    BOOST_TEST(c.find("GET /big HTTP/1.1\r\n\r\n", 1) == nullptr);
    for (int i = 0; i < 200; ++i) {
        c.keep(
            entry_of(
                "GET /m/" + std::to_string(i) + " HTTP/1.1\r\n\r\n", std::string(cache::max_bytes / 100, 'y')
            ),
            1,
            1
        );
        BOOST_TEST_REQUIRE(c.bytes() <= cache::max_bytes);
    }
    BOOST_TEST(c.find("GET /m/199 HTTP/1.1\r\n\r\n", 1) != nullptr);
}

BOOST_AUTO_TEST_CASE(each_cache_keeps_its_own_answers) {
    // One per I/O thread: what one thread keeps is not another's.
    cache first;
    cache second;
    first.keep(entry_of(products_head), 1, 1);
    BOOST_TEST(first.find(products_head, 1) != nullptr);
    BOOST_TEST(second.find(products_head, 1) == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
