// Tests for offset/limit validation (bounds table with exact messages) and page slicing.
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/pagination.hpp"
#include "query_text.hpp"

using namespace storefront::core;

using storefront::test::describe;

BOOST_AUTO_TEST_SUITE(pagination)

BOOST_AUTO_TEST_CASE(accepted_table) {
    struct row {
        query_params params;
        std::size_t offset;
        std::size_t limit;
    };
    const std::vector<row> rows = {
        {{}, 0, 10},
        {{{"offset", "0"}}, 0, 10},
        {{{"limit", "1"}}, 0, 1},
        {{{"limit", "100"}}, 0, 100},
        {{{"offset", "20"}, {"limit", "5"}}, 20, 5},
        {{{"limit", "5"}, {"offset", "20"}}, 20, 5},
        {{{"offset", "1000000000"}}, 1'000'000'000, 10},
        {{{"offset", "3"}, {"sort", "x"}, {"limit", "007"}}, 3, 7},  // unknown parameters are ignored
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto page = parse_page(r.params);
            BOOST_TEST_REQUIRE(page.has_value());
            BOOST_TEST(page->offset == r.offset);
            BOOST_TEST(page->limit == r.limit);
        }
    }
}

BOOST_AUTO_TEST_CASE(rejected_table) {
    struct row {
        query_params params;
        std::vector<std::string> messages;
    };
    const std::vector<row> rows = {
        {{{"limit", "0"}}, {"limit must not be less than 1"}},
        {{{"limit", "-1"}}, {"limit must not be less than 1"}},
        {{{"limit", "101"}}, {"limit must not be greater than 100"}},
        {{{"limit", "abc"}}, {"limit must be a number conforming to the specified constraints"}},
        {{{"limit", "1.5"}}, {"limit must be a number conforming to the specified constraints"}},
        {{{"limit", ""}}, {"limit must be a number conforming to the specified constraints"}},
        {{{"limit", "+5"}}, {"limit must be a number conforming to the specified constraints"}},
        {{{"limit", " 5"}}, {"limit must be a number conforming to the specified constraints"}},
        {{{"limit", "99999999999999999999"}}, {"limit must not be greater than 100"}},
        {{{"limit", "5"}, {"limit", "6"}}, {"limit must be given at most once"}},
        {{{"offset", "-1"}}, {"offset must not be less than 0"}},
        {{{"offset", "abc"}}, {"offset must be a number conforming to the specified constraints"}},
        {{{"offset", "1.5"}}, {"offset must be a number conforming to the specified constraints"}},
        {{{"offset", ""}}, {"offset must be a number conforming to the specified constraints"}},
        {{{"offset", "1000000001"}}, {"offset must not be greater than 1000000000"}},
        {{{"offset", "99999999999999999999"}}, {"offset must not be greater than 1000000000"}},
        {{{"offset", "-99999999999999999999"}}, {"offset must not be less than 0"}},
        {{{"offset", "1"}, {"offset", "1"}}, {"offset must be given at most once"}},
        {{{"offset", "-1"}, {"limit", "0"}},
         {"offset must not be less than 0", "limit must not be less than 1"}},
        {{{"limit", "abc"}, {"offset", "x"}},
         {"offset must be a number conforming to the specified constraints",
          "limit must be a number conforming to the specified constraints"}},
        {{{"offset", "1"}, {"offset", "2"}, {"limit", "101"}},
         {"offset must be given at most once", "limit must not be greater than 100"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto page = parse_page(r.params);
            BOOST_TEST_REQUIRE(page.has_error());
            BOOST_TEST(page.error().messages == r.messages, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_CASE(page_slice_table) {
    struct row {
        std::size_t offset;
        std::size_t limit;
        std::size_t total;
        std::size_t first;
        std::size_t last;
    };
    const row rows[] = {
        {0, 10, 0, 0, 0},
        {0, 10, 5, 0, 5},
        {0, 10, 25, 0, 10},
        {20, 10, 25, 20, 25},
        {25, 10, 25, 25, 25},
        {100, 10, 25, 25, 25},
        {1'000'000'000, 100, 3, 3, 3},
        {3, 1, 10, 3, 4},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("offset=" << r.offset << " limit=" << r.limit << " total=" << r.total) {
            const index_range range = page_slice(page_request{r.offset, r.limit}, r.total);
            BOOST_TEST(range.first == r.first);
            BOOST_TEST(range.last == r.last);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
