// Tests for the Link header of paged lists: offset/limit replaced in place or appended, every other
// parameter kept in order with its exact percent-encoding, and the relations present at each edge.
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/paging_links.hpp"
#include "server/codec/link_header.hpp"

using namespace storefront;
using namespace storefront::server;

BOOST_AUTO_TEST_SUITE(link_header_codec)

BOOST_AUTO_TEST_CASE(page_target_table) {
    struct row {
        std::string target;
        std::size_t offset;
        std::size_t limit;
        std::string expected;
    };
    const std::vector<row> rows = {
        {"/api/v1/products", 0, 10, "/api/v1/products?offset=0&limit=10"},
        {"/api/v1/products?", 20, 10, "/api/v1/products?offset=20&limit=10"},
        {"/api/v1/products?offset=10&limit=10", 20, 10, "/api/v1/products?offset=20&limit=10"},
        // Replaced where they stand; the rest keeps its order.
        {"/api/v1/products?limit=5&title=shirt&offset=0",
         5,
         5,
         "/api/v1/products?limit=5&title=shirt&offset=5"},
        {"/api/v1/products?title=shirt&price_min=10&price_max=50&offset=0&limit=2",
         2,
         2,
         "/api/v1/products?title=shirt&price_min=10&price_max=50&offset=2&limit=2"},
        // A missing one is appended, offset before limit.
        {"/api/v1/products?sortBy=price&order=desc",
         10,
         10,
         "/api/v1/products?sortBy=price&order=desc&offset=10&limit=10"},
        {"/api/v1/products?limit=3&q=red", 3, 3, "/api/v1/products?limit=3&q=red&offset=3"},
        {"/api/v1/products?offset=6&q=red", 9, 10, "/api/v1/products?offset=9&q=red&limit=10"},
        // Percent-encoding and '+' survive byte for byte.
        {"/api/v1/products?q=red%20shirt&offset=0&limit=10",
         10,
         10,
         "/api/v1/products?q=red%20shirt&offset=10&limit=10"},
        {"/api/v1/products?q=red+shirt&limit=10", 0, 10, "/api/v1/products?q=red+shirt&limit=10&offset=0"},
        {"/api/v1/products?title=caf%C3%A9&select=title%2Cprice&limit=1",
         4,
         1,
         "/api/v1/products?title=caf%C3%A9&select=title%2Cprice&limit=1&offset=4"},
        {"/api/v1/products?q=a%26offset%3D99&limit=10",
         10,
         10,
         "/api/v1/products?q=a%26offset%3D99&limit=10&offset=10"},  // an encoded '&' is not a separator
        {"/api/v1/users?email=a%40b.com&offset=0&limit=10",
         10,
         10,
         "/api/v1/users?email=a%40b.com&offset=10&limit=10"},
        // An encoded parameter name is still offset or limit.
        {"/api/v1/products?off%73et=3&l%69mit=3", 6, 3, "/api/v1/products?offset=6&limit=3"},
        // Repeats dropped, flags and empty values kept, stray '&' dropped.
        {"/api/v1/products?offset=1&offset=2&limit=3&limit=4", 6, 3, "/api/v1/products?offset=6&limit=3"},
        {"/api/v1/products?flag&empty=&offset=0", 10, 10, "/api/v1/products?flag&empty=&offset=10&limit=10"},
        {"/api/v1/products?&&title=x&", 0, 10, "/api/v1/products?title=x&offset=0&limit=10"},
        // Path escapes stay as they are.
        {"/api/v1/categories/1/products?limit=2", 2, 2, "/api/v1/categories/1/products?limit=2&offset=2"},
        {"/api/v1/categories/a%20b/products", 0, 10, "/api/v1/categories/a%20b/products?offset=0&limit=10"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.target << " -> offset " << r.offset << " limit " << r.limit) {
            const auto target = parse_request_target(r.target);
            BOOST_TEST_REQUIRE(target.has_value());
            BOOST_TEST(page_target(*target, r.offset, r.limit) == r.expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(link_header_table) {
    struct row {
        std::string target;
        std::size_t total;
        std::size_t offset;
        std::size_t limit;
        std::string expected;
    };
    const std::string p = "/api/v1/products";
    const std::vector<row> rows = {
        // First page of three.
        {p + "?offset=0&limit=10",
         25,
         0,
         10,
         "</api/v1/products?offset=0&limit=10>; rel=\"first\", </api/v1/products?offset=10&limit=10>; "
         "rel=\"next\", "
         "</api/v1/products?offset=20&limit=10>; rel=\"last\""},
        // A middle page, with other parameters kept.
        {p + "?q=red%20shirt&offset=10&limit=10&sortBy=price",
         25,
         10,
         10,
         "</api/v1/products?q=red%20shirt&offset=0&limit=10&sortBy=price>; rel=\"first\", "
         "</api/v1/products?q=red%20shirt&offset=0&limit=10&sortBy=price>; rel=\"prev\", "
         "</api/v1/products?q=red%20shirt&offset=20&limit=10&sortBy=price>; rel=\"next\", "
         "</api/v1/products?q=red%20shirt&offset=20&limit=10&sortBy=price>; rel=\"last\""},
        // The last page, exactly full.
        {p + "?offset=20&limit=10",
         30,
         20,
         10,
         "</api/v1/products?offset=0&limit=10>; rel=\"first\", </api/v1/products?offset=10&limit=10>; "
         "rel=\"prev\", "
         "</api/v1/products?offset=20&limit=10>; rel=\"last\""},
        // An empty result: first and last only, both offset 0.
        {p + "?title=nothing",
         0,
         0,
         10,
         "</api/v1/products?title=nothing&offset=0&limit=10>; rel=\"first\", "
         "</api/v1/products?title=nothing&offset=0&limit=10>; rel=\"last\""},
        // An offset past the end.
        {p + "?offset=100&limit=10",
         25,
         100,
         10,
         "</api/v1/products?offset=0&limit=10>; rel=\"first\", </api/v1/products?offset=90&limit=10>; "
         "rel=\"prev\", "
         "</api/v1/products?offset=20&limit=10>; rel=\"last\""},
        // limit 1.
        {"/api/v1/users?limit=1&offset=1",
         3,
         1,
         1,
         "</api/v1/users?limit=1&offset=0>; rel=\"first\", </api/v1/users?limit=1&offset=0>; rel=\"prev\", "
         "</api/v1/users?limit=1&offset=2>; rel=\"next\", </api/v1/users?limit=1&offset=2>; rel=\"last\""},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.target << " total " << r.total) {
            const auto target = parse_request_target(r.target);
            BOOST_TEST_REQUIRE(target.has_value());
            const auto links = core::paging_links_for(r.total, r.offset, r.limit);
            BOOST_TEST(link_header(*target, links, r.limit) == r.expected);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
