// End to end over HTTP, on memory and SQLite (server_tests) or PostgreSQL (server_tests_pg): filtered,
// searched and sorted product pages are kept per store revision. A repeated request is a cache hit with the
// same bytes, ETag and headers as the first; every answer equals the test's own filtering of the whole list;
// a create, an update or a delete shows in the next answer.

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace filtered_answers_e2e_file {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return text;
}

// One filter and the test's own reading of it.
struct filter_case {
    std::string query;
    std::string title;  // case-insensitive substring, "" for any
    double price_min = -1e18;
    double price_max = 1e18;
    std::int64_t category = 0;  // 0 for any
};

std::vector<std::int64_t> expected_ids(const json::value& all, const filter_case& f) {
    std::vector<std::int64_t> out;
    for (const auto& item : all.as_array()) {
        const std::string title(item.at("title").as_string());
        const double price = item.at("price").to_number<double>();
        const auto category = item.at("category").at("id").as_int64();
        if (lower(title).find(lower(f.title)) != std::string::npos && price >= f.price_min - 0.005 &&
            price <= f.price_max + 0.005 && (f.category == 0 || category == f.category)) {
            out.push_back(item.at("id").as_int64());
        }
    }
    return out;
}

const std::vector<filter_case> filters = {
    {"title=shirt", "shirt"},
    {"title=SHIRT", "SHIRT"},
    {"title=ic", "ic"},
    {"title=classic&price_min=10&price_max=50", "classic", 10, 50},
    {"price_min=10&price_max=50&categoryId=1", "", 10, 50, 1},
    {"title=e&categoryId=2", "e", -1e18, 1e18, 2},
    {"title=no%20such%20product%20anywhere", "no such product anywhere"},
    {"price_min=100000", "", 100000},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(filtered_answers_e2e)

BOOST_AUTO_TEST_CASE(repeated_filters_are_hits_with_the_bytes_of_the_first_answer) {
    temp_dir dir;
    for (const auto& b : backends(dir, "filtered.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            const json::value all = get(port, "/api/v1/products?offset=0&limit=100").json();
            std::vector<http_reply> first;
            for (const auto& f : filters) {
                first.push_back(get(port, "/api/v1/products?limit=100&" + f.query));
            }
            // Asked again in reverse order: each answer its own, from the cache.
            // A hit of the list cache, or of an I/O thread's replay cache, which answers the same bytes
            // again.
            const auto served_again = [&] {
                return metric(port, "storefront_response_cache_hits_total") +
                       metric(port, "storefront_replayed_requests_total");
            };
            const double before = served_again();
            for (std::size_t i = filters.size(); i-- > 0;) {
                BOOST_TEST_CONTEXT(filters[i].query) {
                    const auto again = get(port, "/api/v1/products?limit=100&" + filters[i].query);
                    BOOST_TEST(again.status == 200u);
                    BOOST_TEST(again.body == first[i].body);
                    BOOST_TEST(again.header("etag") == first[i].header("etag"));
                    BOOST_TEST(!again.header("etag").empty());
                    BOOST_TEST(again.header("x-total-count") == first[i].header("x-total-count"));
                    BOOST_TEST(again.header("link") == first[i].header("link"));
                    const auto want = expected_ids(all, filters[i]);
                    BOOST_TEST(ids_of(again.json()) == want, boost::test_tools::per_element());
                    BOOST_TEST(again.header("x-total-count") == std::to_string(want.size()));
                }
            }
            const double after = served_again();
            BOOST_TEST(after - before >= static_cast<double>(filters.size()));
        }
    }
}

BOOST_AUTO_TEST_CASE(searched_sorted_and_paged_answers_are_cached_per_request) {
    temp_dir dir;
    for (const auto& b : backends(dir, "filtered.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            const std::vector<std::string> targets = {
                "/api/v1/products?sortBy=price&order=desc&limit=5",
                "/api/v1/products?sortBy=price&order=desc&limit=5&offset=5",
                "/api/v1/products?sortBy=price&order=asc&limit=5",
                "/api/v1/products?q=shirt&limit=5",
                "/api/v1/products?q=shirt&select=title&limit=5",
                "/api/v1/products?title=shirt&sortBy=title&limit=5",
                "/api/v1/categories/1/products?sortBy=price&limit=5",
            };
            std::vector<std::string> first;
            for (const auto& t : targets) {
                first.push_back(get(port, t).body);
            }
            for (std::size_t i = 0; i < targets.size(); ++i) {
                BOOST_TEST_CONTEXT(targets[i]) {
                    BOOST_TEST(get(port, targets[i]).body == first[i]);
                }
            }
            // Distinct requests got distinct answers (no key shared by two of them).
            for (std::size_t i = 0; i < 3; ++i) {
                for (std::size_t j = i + 1; j < 3; ++j) {
                    BOOST_TEST(first[i] != first[j]);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_write_shows_in_the_next_filtered_answer) {
    temp_dir dir;
    for (const auto& b : backends(dir, "filtered.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            const std::string filtered = "/api/v1/products?title=quokka&price_max=500";
            const std::string searched = "/api/v1/products?q=quokka&sortBy=price";
            for (int twice = 0; twice < 2; ++twice) {  // the empty answers are cached
                BOOST_TEST(get(port, filtered).header("x-total-count") == "0");
                BOOST_TEST(get(port, searched).header("x-total-count") == "0");
            }
            const auto created = post_json(
                port,
                "/api/v1/products",
                R"({"title":"Quokka Mug","price":21,"description":"A mug","categoryId":1,)"
                R"("images":["https://placehold.co/600x400"]})"
            );
            BOOST_TEST_REQUIRE(created.status == 201u, created.body);
            const auto id = created.json().at("id").as_int64();
            const std::string target = "/api/v1/products/" + std::to_string(id);
            BOOST_TEST(ids_of(get(port, filtered).json()) == std::vector<std::int64_t>{id});
            BOOST_TEST(ids_of(get(port, searched).json()) == std::vector<std::int64_t>{id});

            const auto moved = send_request(
                port,
                {.method = "PUT",
                 .target = target,
                 .body = R"({"price":900})",
                 .content_type = "application/json"}
            );
            BOOST_TEST_REQUIRE(moved.status == 200u, moved.body);
            BOOST_TEST(get(port, filtered).header("x-total-count") == "0");
            BOOST_TEST(get(port, searched).json().at(0).at("price").to_number<double>() == 900.0);

            BOOST_TEST_REQUIRE(send_request(port, {.method = "DELETE", .target = target}).status == 200u);
            BOOST_TEST(get(port, searched).header("x-total-count") == "0");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_missing_category_stays_a_404_whatever_was_cached) {
    temp_dir dir;
    for (const auto& b : backends(dir, "filtered.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            for (int twice = 0; twice < 2; ++twice) {
                BOOST_TEST(get(port, "/api/v1/products?categoryId=99").status == 200u);
                BOOST_TEST(get(port, "/api/v1/products?categoryId=99&sortBy=price").status == 200u);
                BOOST_TEST(get(port, "/api/v1/categories/99/products").status == 404u);
                BOOST_TEST(get(port, "/api/v1/categories/99/products?sortBy=price").status == 404u);
            }
            const auto created =
                post_json(port, "/api/v1/categories", R"({"name":"Quokkas","image":"https://x.com/q.png"})");
            BOOST_TEST_REQUIRE(created.status == 201u, created.body);
            const std::string products =
                "/api/v1/categories/" + std::to_string(created.json().at("id").as_int64()) + "/products";
            BOOST_TEST(get(port, products).status == 200u);
            BOOST_TEST(get(port, products).header("x-total-count") == "0");
            BOOST_TEST_REQUIRE(
                send_request(port, {.method = "DELETE", .target = products.substr(0, products.size() - 9)})
                    .status == 200u
            );
            BOOST_TEST(get(port, products).status == 404u);
            BOOST_TEST(get(port, products + "?q=x").status == 404u);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace filtered_answers_e2e_file
