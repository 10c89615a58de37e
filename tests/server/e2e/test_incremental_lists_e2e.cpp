// End to end over HTTP, on memory and SQLite (and PostgreSQL under server_tests_pg): after creates, updates
// and deletes of products (the last, a middle one) and an update of a category its products embed, every
// cached page and item equals what the store answers read whole (a filtered list, which never uses the
// cache); the ETag of a page the write did not touch stays, a touched page's changes; and the list was
// patched with the changed rows, not reread whole (/metrics). Under concurrent creators, whose writes share
// commits and leave the list patching to the batch after them, each creator finds its product listed at once.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace incremental_lists_e2e_file {
namespace {

http_reply send_json(
    std::uint16_t port, const std::string& method, const std::string& target, const std::string& body
) {
    return send_request(
        port, {.method = method, .target = target, .body = body, .content_type = "application/json"}
    );
}

std::string page_target(std::size_t offset, std::size_t limit, const std::string& filter = "") {
    return "/api/v1/products?" + filter + "offset=" + std::to_string(offset) +
           "&limit=" + std::to_string(limit);
}

// Every page of 10 from the cache equals the same page read from the store (price_min=0 filters nothing
// but takes the uncached path), with the same X-Total-Count; so does every item by id.
void check_pages_equal_the_store(std::uint16_t port) {
    const auto whole = get(port, page_target(0, 100, "price_min=0&"));
    BOOST_TEST_REQUIRE(whole.status == 200u);
    const auto total = std::stoul(whole.header("x-total-count"));
    for (std::size_t offset = 0; offset <= total; offset += 10) {
        BOOST_TEST_CONTEXT("offset " << offset) {
            const auto cached = get(port, page_target(offset, 10));
            const auto stored = get(port, page_target(offset, 10, "price_min=0&"));
            BOOST_TEST(cached.json() == stored.json());
            BOOST_TEST(cached.header("x-total-count") == stored.header("x-total-count"));
        }
    }
    const json::value items = whole.json();
    for (const auto& item : items.as_array()) {
        const auto id = item.at("id").as_int64();
        BOOST_TEST_CONTEXT("product " << id) {
            BOOST_TEST(get(port, "/api/v1/products/" + std::to_string(id)).json() == item);
        }
    }
}

std::string etag_of(std::uint16_t port, std::size_t offset) {
    const auto reply = get(port, page_target(offset, 10));
    BOOST_TEST_REQUIRE(reply.status == 200u);
    return reply.header("etag");
}

std::int64_t create_product(std::uint16_t port, const std::string& title, std::int64_t category) {
    const auto created = send_json(
        port,
        "POST",
        "/api/v1/products",
        R"({"title":")" + title + R"(","price":12,"description":"d","categoryId":)" +
            std::to_string(category) + R"(,"images":["https://placehold.co/600x400"]})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    return created.json().at("id").as_int64();
}

// Creates a product titled `title` and looks for it at once on its page and by id: "" when found, else
// what went wrong. Nothing is deleted meanwhile, so product `id` is at offset id - 1, or up to `creators` - 1
// before it while other creators' lower ids are not committed yet (a PostgreSQL sequence hands ids out
// before the commit). Never throws (it runs on a creator's thread).
std::string create_and_find(std::uint16_t port, const std::string& title, int creators) {
    try {
        const auto created = send_json(
            port,
            "POST",
            "/api/v1/products",
            R"({"title":")" + title +
                R"(","price":5,"description":"d","categoryId":1,"images":["https://x.com/a.png"]})"
        );
        if (created.status != 201u) {
            return title + ": " + created.body;
        }
        const auto id = created.json().at("id").as_int64();
        const auto from = static_cast<std::size_t>(std::max<std::int64_t>(id - creators, 0));
        const auto page = get(port, page_target(from, static_cast<std::size_t>(creators)));
        if (page.status != 200u) {
            return title + ": page " + page.body;
        }
        const json::value rows = page.json();
        const auto& items = rows.as_array();
        if (std::none_of(items.begin(), items.end(), [id](const json::value& row) {
                return row.at("id").as_int64() == id;
            })) {
            return title + " not on its page: " + page.body;
        }
        if (get(port, "/api/v1/products/" + std::to_string(id)).status != 200u) {
            return title + " not found by id";
        }
        return {};
    } catch (const std::exception& e) {
        return title + ": " + e.what();
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(incremental_lists_e2e)

BOOST_AUTO_TEST_CASE(pages_and_items_follow_writes_as_a_full_reload_would) {
    temp_dir dir;
    for (const auto& b : backends(dir, "incremental.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            const auto category = send_json(
                port, "POST", "/api/v1/categories", R"({"name":"Incremental","image":"https://x.com/i.png"})"
            );
            BOOST_TEST_REQUIRE(category.status == 201u, category.body);
            const auto category_id = category.json().at("id").as_int64();
            // 51 seed products (read-only) then ours: ids 52.. on pages 5 and 6 of 10.
            std::vector<std::int64_t> ours;
            for (int i = 0; i < 15; ++i) {
                ours.push_back(
                    create_product(port, "Incremental " + std::to_string(i), i % 2 ? 1 : category_id)
                );
            }
            check_pages_equal_the_store(port);
            // On PostgreSQL the listener starts and the instance's own notifications come back a moment
            // later (unnamed ones make it reread whole): let them settle before counting.
            // Every list loaded once (the cache forgets them when the listener learns its port).
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            for (const std::string& list :
                 {page_target(0, 10), std::string("/api/v1/categories"), std::string("/api/v1/users")}) {
                BOOST_TEST_REQUIRE(get(port, list).status == 200u);
            }

            const auto first_page = etag_of(port, 0);
            const auto middle_page = etag_of(port, 30);
            const auto our_first_page = etag_of(port, 50);
            const auto our_last_page = etag_of(port, 60);
            const double rebuilds = metric(port, "storefront_response_cache_rebuilds_total");
            const double patches = metric(port, "storefront_response_cache_patches_total");

            // An update of the last product: only its page changes.
            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", "/api/v1/products/" + std::to_string(ours.back()), R"({"price":99})")
                    .status == 200u
            );
            BOOST_TEST(etag_of(port, 0) == first_page);
            BOOST_TEST(etag_of(port, 30) == middle_page);
            BOOST_TEST(etag_of(port, 50) == our_first_page);
            BOOST_TEST(etag_of(port, 60) != our_last_page);
            check_pages_equal_the_store(port);
            BOOST_TEST(metric(port, "storefront_response_cache_patches_total") > patches);
            BOOST_TEST(metric(port, "storefront_response_cache_rebuilds_total") == rebuilds);

            // A delete of a middle one of ours: pages from it on change, the seed's stay.
            const auto before_delete = etag_of(port, 50);
            BOOST_TEST_REQUIRE(
                send_request(
                    port, {.method = "DELETE", .target = "/api/v1/products/" + std::to_string(ours[7])}
                )
                    .status == 200u
            );
            BOOST_TEST(etag_of(port, 0) == first_page);
            BOOST_TEST(etag_of(port, 30) == middle_page);
            BOOST_TEST(etag_of(port, 50) != before_delete);
            BOOST_TEST(get(port, "/api/v1/products/" + std::to_string(ours[7])).status == 404u);
            check_pages_equal_the_store(port);

            // A delete of the last and a create after it.
            BOOST_TEST_REQUIRE(
                send_request(
                    port, {.method = "DELETE", .target = "/api/v1/products/" + std::to_string(ours.back())}
                )
                    .status == 200u
            );
            check_pages_equal_the_store(port);
            const auto created = create_product(port, "Incremental late", category_id);
            BOOST_TEST(
                get(port, "/api/v1/products/" + std::to_string(created)).json().at("title").as_string() ==
                "Incremental late"
            );
            check_pages_equal_the_store(port);

            // A renamed category is embedded anew in each of its products (none of which was written).
            BOOST_TEST_REQUIRE(
                send_json(
                    port,
                    "PUT",
                    "/api/v1/categories/" + std::to_string(category_id),
                    R"({"name":"Renamed Incremental"})"
                )
                    .status == 200u
            );
            const auto renamed = get(port, "/api/v1/products/" + std::to_string(ours[0])).json();
            BOOST_TEST(renamed.at("category").at("name").as_string() == "Renamed Incremental");
            check_pages_equal_the_store(port);
            const auto categories = get(port, "/api/v1/categories").json();
            BOOST_TEST(categories.as_array().back().at("name").as_string() == "Renamed Incremental");
            BOOST_TEST(
                get(port, "/api/v1/categories/" + std::to_string(category_id))
                    .json()
                    .at("name")
                    .as_string() == "Renamed Incremental"
            );
            BOOST_TEST(etag_of(port, 0) == first_page);
            BOOST_TEST(metric(port, "storefront_response_cache_rebuilds_total") == rebuilds);
        }
    }
}

BOOST_AUTO_TEST_CASE(each_of_concurrent_creators_finds_its_product_listed_at_once) {
    temp_dir dir;
    for (const auto& b : backends(dir, "concurrent.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            BOOST_TEST_REQUIRE(get(port, page_target(0, 10)).status == 200u);  // the list cached
            const double batches_before = metric(port, "storefront_write_batches_total");
            constexpr int creators = 8;
            constexpr int creates_each = 25;
            std::mutex mutex;
            std::vector<std::string> misses;  // Boost.Test is not thread-safe: checked after the join
            std::vector<std::thread> threads;
            for (int c = 0; c < creators; ++c) {
                threads.emplace_back([&, c] {
                    for (int i = 0; i < creates_each; ++i) {
                        const auto title = "Concurrent " + std::to_string(c) + "-" + std::to_string(i);
                        const auto miss = create_and_find(port, title, creators);
                        if (!miss.empty()) {
                            std::lock_guard lock(mutex);
                            misses.push_back(miss);
                        }
                    }
                });
            }
            for (auto& t : threads) {
                t.join();
            }
            BOOST_TEST(
                misses.empty(), misses.size() << " misses, first: " << (misses.empty() ? "" : misses[0])
            );
            BOOST_TEST(
                get(port, page_target(0, 1)).header("x-total-count") ==
                std::to_string(51 + creators * creates_each)
            );
            check_pages_equal_the_store(port);
            if (b.name == "sqlite") {  // the write lane's: commits were shared
                BOOST_TEST(
                    metric(port, "storefront_write_batches_total") - batches_before < creators * creates_each
                );
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace incremental_lists_e2e_file
