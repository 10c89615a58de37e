// Tests for the first/prev/next/last offsets of a list page: ordinary pages and every edge.
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/paging_links.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(paging_links_offsets)

BOOST_AUTO_TEST_CASE(offsets_table) {
    constexpr std::size_t big = std::numeric_limits<std::size_t>::max();
    constexpr auto none = std::nullopt;
    struct row {
        std::size_t total;
        std::size_t offset;
        std::size_t limit;
        std::optional<std::size_t> prev;
        std::optional<std::size_t> next;
        std::size_t last;
    };
    const std::vector<row> rows = {
        // An empty result: no prev, no next, last is the first page.
        {0, 0, 10, none, none, 0},
        {0, 20, 10, 10, none, 0},
        // One page, partly or exactly filled.
        {5, 0, 10, none, none, 0},
        {10, 0, 10, none, none, 0},
        // The first, a middle and the last page.
        {25, 0, 10, none, 10, 20},
        {25, 10, 10, 0, 20, 20},
        {25, 20, 10, 10, none, 20},
        // The last page exactly full.
        {30, 20, 10, 10, none, 20},
        {30, 10, 10, 0, 20, 20},
        // An offset not on a page boundary.
        {25, 5, 10, 0, 15, 20},
        {25, 15, 10, 5, none, 20},
        {25, 3, 10, 0, 13, 20},
        // An offset past the end: an empty page, prev by the same formula, no next.
        {25, 25, 10, 15, none, 20},
        {25, 100, 10, 90, none, 20},
        {1, 1, 1, 0, none, 0},
        // limit 1.
        {1, 0, 1, none, none, 0},
        {3, 0, 1, none, 1, 2},
        {3, 1, 1, 0, 2, 2},
        {3, 2, 1, 1, none, 2},
        // limit larger than the total.
        {3, 0, 100, none, none, 0},
        {3, 2, 100, 0, none, 0},
        // limit 0 (a whole-list answer): no prev or next.
        {25, 0, 0, none, none, 0},
        {25, 5, 0, none, none, 0},
        // Near the top of size_t: no wrap-around.
        {big, big - 1, 10, big - 11, none, (big - 1) / 10 * 10},
        {big, 0, big, none, none, 0},
        {big, 1, big, 0, none, 0},
        {10, big, big, 0, none, 0},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("total " << r.total << " offset " << r.offset << " limit " << r.limit) {
            const paging_links got = paging_links_for(r.total, r.offset, r.limit);
            BOOST_TEST(got.first == 0u);
            BOOST_TEST(got.prev.has_value() == r.prev.has_value());
            if (got.prev && r.prev) {
                BOOST_TEST(*got.prev == *r.prev);
            }
            BOOST_TEST(got.next.has_value() == r.next.has_value());
            if (got.next && r.next) {
                BOOST_TEST(*got.next == *r.next);
            }
            BOOST_TEST(got.last == r.last);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
