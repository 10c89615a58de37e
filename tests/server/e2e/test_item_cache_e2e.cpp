// End to end over HTTP: single products, categories and users by id come from the cached lists on every
// backend (memory, SQLite, and PostgreSQL under server_tests_pg, whose revision also moves on other
// instances' notifications): the same bytes as the list element and as the store's answer, never stale
// after a write, a delete or a create, and counted as cache hits in /metrics.

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

// The element with `id` of a whole list, as the list wrote it.
std::string element_of(std::uint16_t port, const std::string& list, std::int64_t id) {
    const json::value all = get(port, list).json();
    for (const auto& item : all.as_array()) {
        if (item.at("id").as_int64() == id) {
            return json::serialize(item);
        }
    }
    return {};
}

http_reply send_json(
    std::uint16_t port, const std::string& method, const std::string& target, const std::string& body
) {
    return send_request(
        port, {.method = method, .target = target, .body = body, .content_type = "application/json"}
    );
}

}  // namespace

BOOST_AUTO_TEST_SUITE(item_cache_e2e)

BOOST_AUTO_TEST_CASE(items_by_id_match_the_lists_and_follow_every_write) {
    temp_dir dir;
    for (const auto& b : backends(dir, "items.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            // Each list loaded once, so its cached revision is current.
            const std::string products = "/api/v1/products?offset=0&limit=100";
            for (const std::string& list :
                 {products, std::string("/api/v1/categories"), std::string("/api/v1/users")}) {
                BOOST_TEST_REQUIRE(get(port, list).status == 200u);
            }
            // The same bytes as the list element (JSON re-serialised the same way on both sides).
            for (const auto& [item, list] :
                 {std::pair{"/api/v1/products/7", products},
                  std::pair{"/api/v1/categories/2", std::string("/api/v1/categories")},
                  std::pair{"/api/v1/users/1", std::string("/api/v1/users")}}) {
                BOOST_TEST_CONTEXT(item) {
                    const auto reply = get(port, item);
                    BOOST_TEST_REQUIRE(reply.status == 200u);
                    const auto id = reply.json().at("id").as_int64();
                    BOOST_TEST(json::serialize(reply.json()) == element_of(port, list, id));
                }
            }
            // Served from the cache (or answered again by an I/O thread's replay cache), on every backend.
            const auto served_again = [&] {
                return metric(port, "storefront_response_cache_hits_total") +
                       metric(port, "storefront_replayed_requests_total");
            };
            const double before = served_again();
            BOOST_TEST_REQUIRE(get(port, "/api/v1/products/7").status == 200u);
            const double after = served_again();
            BOOST_TEST(after - before >= 1.0, "cache hits " << before << " -> " << after);

            // A create, an update and a delete show at once, whether the list was reloaded since or not.
            const auto created = send_json(
                port,
                "POST",
                "/api/v1/products",
                R"({"title":"Cached Item","price":12,"description":"d","categoryId":1,)"
                R"("images":["https://placehold.co/600x400"]})"
            );
            BOOST_TEST_REQUIRE(created.status == 201u, created.body);
            const auto id = created.json().at("id").as_int64();
            const std::string target = "/api/v1/products/" + std::to_string(id);
            BOOST_TEST(get(port, target).json().at("title").as_string() == "Cached Item");
            BOOST_TEST_REQUIRE(get(port, products).status == 200u);  // the list's new revision is loaded
            BOOST_TEST(get(port, target).json().at("title").as_string() == "Cached Item");
            BOOST_TEST_REQUIRE(send_json(port, "PUT", target, R"({"title":"Renamed Item"})").status == 200u);
            BOOST_TEST(get(port, target).json().at("title").as_string() == "Renamed Item");
            BOOST_TEST_REQUIRE(get(port, products).status == 200u);
            BOOST_TEST(get(port, target).json().at("title").as_string() == "Renamed Item");
            BOOST_TEST(json::serialize(get(port, target).json()) == element_of(port, products, id));
            BOOST_TEST_REQUIRE(send_request(port, {.method = "DELETE", .target = target}).status == 200u);
            BOOST_TEST(get(port, target).status == 404u);
            BOOST_TEST_REQUIRE(get(port, products).status == 200u);
            BOOST_TEST(get(port, target).status == 404u);
            // `select` is shaped per request, from the store.
            BOOST_TEST(
                get(port, "/api/v1/products/7?select=title").body.find("\"price\"") == std::string::npos
            );
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
