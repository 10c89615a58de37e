// End to end over HTTP: a GET whose header bytes an I/O thread answered before is answered again from
// that thread's replay cache, and must look exactly as if it had been routed: never stale after a write to
// the shared data (products, categories, users; on every backend), never across sandboxes, which have data
// of their own, never with fault injection on; counted in /metrics; Connection: close and pipelining kept.
// One keep-alive connection stays on one I/O thread, so its repeated requests are the ones replayed.

#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/eventually.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace replay_e2e_file {
namespace {

http_reply send_json(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& body,
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    return send_request(
        port,
        {.method = method,
         .target = target,
         .body = body,
         .content_type = "application/json",
         .headers = headers}
    );
}

// The raw bytes of one GET of `target` with `more` header lines, as a browser or suite repeats them.
std::string get_bytes(const std::string& target, const std::string& more = {}) {
    return "GET " + target + " HTTP/1.1\r\nHost: storefront\r\nAccept: */*\r\n" + more + "\r\n";
}

// The one reply to `bytes` sent on a fresh connection (a replayed answer on whichever thread takes it).
http_reply exchange_one(std::uint16_t port, const std::string& bytes) {
    auto replies =
        parse_responses(raw_exchange(port, bytes + get_bytes("/healthz", "Connection: close\r\n")));
    BOOST_TEST_REQUIRE(replies.size() == 2u);
    return replies.front();
}

// Creates a product titled `title` through `list` (a sandbox's, with `headers`); its id.
std::int64_t create_product(
    std::uint16_t port,
    const std::string& title,
    const std::string& list = "/api/v1/products",
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    const http_reply created = send_json(
        port,
        "POST",
        list,
        R"({"title":")" + title +
            R"(","price":5,"description":"d","categoryId":2,"images":["https://placehold.co/600x400"]})",
        headers
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    return created.json().at("id").as_int64();
}

std::string title_of(const http_reply& r) {
    return std::string(r.json().at("title").as_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(replay_e2e)

BOOST_AUTO_TEST_CASE(a_repeated_get_follows_every_write_to_the_shared_data) {
    temp_dir dir;
    for (const auto& b : backends(dir, "replay.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            keep_alive_connection c(port);
            // Seed rows are read-only: the rows written here are created first.
            const std::string whole = "/api/v1/products?offset=0&limit=100";
            const auto count_before = c.get(whole).json().as_array().size();
            BOOST_TEST(c.get(whole).json().as_array().size() == count_before);
            const std::int64_t id = create_product(port, "Replay first");
            // A create from another connection (another thread, maybe): the whole list asked the same way
            // again has it.
            BOOST_TEST(c.get(whole).json().as_array().size() == count_before + 1);

            const std::string product = "/api/v1/products/" + std::to_string(id);
            const http_reply first = c.get(product);
            BOOST_TEST_REQUIRE(first.status == 200u);
            for (int i = 0; i < 3; ++i) {
                const http_reply again = c.get(product);
                BOOST_TEST(again.body == first.body);
                BOOST_TEST(again.header("etag") == first.header("etag"));
            }
            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", product, R"({"title":"Replayed no more"})").status == 200u
            );
            const http_reply after = c.get(product);
            BOOST_TEST(title_of(after) == "Replayed no more");
            BOOST_TEST(after.header("etag") != first.header("etag"));

            // A category renamed: the product that embeds it changes too (the same data revision).
            const http_reply category = send_json(
                port,
                "POST",
                "/api/v1/categories",
                R"({"name":"Replay Shelf","image":"https://placehold.co/600x400"})"
            );
            BOOST_TEST_REQUIRE(category.status == 201u, category.body);
            const auto category_id = std::to_string(category.json().at("id").as_int64());
            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", product, R"({"categoryId":)" + category_id + "}").status == 200u
            );
            BOOST_TEST(c.get(product).body.find("Replay Shelf") != std::string::npos);
            BOOST_TEST(c.get(product).body.find("Replay Shelf") != std::string::npos);
            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", "/api/v1/categories/" + category_id, R"({"name":"Renamed Shelf"})")
                    .status == 200u
            );
            BOOST_TEST(c.get(product).body.find("Renamed Shelf") != std::string::npos);

            // Users have a revision of their own; it counts as well.
            const http_reply user = send_json(
                port,
                "POST",
                "/api/v1/users",
                R"({"name":"Replay User","email":"replay@example.com","password":"replaypass1","avatar":"https://placehold.co/600x400"})"
            );
            BOOST_TEST_REQUIRE(user.status == 201u, user.body);
            const std::string user_path = "/api/v1/users/" + std::to_string(user.json().at("id").as_int64());
            BOOST_TEST(c.get(user_path).json().at("name").as_string() == "Replay User");
            BOOST_TEST(c.get(user_path).json().at("name").as_string() == "Replay User");
            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", user_path, R"({"name":"Renamed User"})").status == 200u
            );
            BOOST_TEST(c.get(user_path).json().at("name").as_string() == "Renamed User");

            // Deleted: the repeated GET is a 404, and the whole list is back to its length.
            BOOST_TEST_REQUIRE(send_request(port, {.method = "DELETE", .target = product}).status == 200u);
            BOOST_TEST(c.get(product).status == 404u);
            BOOST_TEST(c.get(whole).json().as_array().size() == count_before);
        }
    }
}

// A write keeps the answers it did not change: a registration keeps the product page, an update of one
// product keeps another product's answer (each answered again from the replay cache, as /metrics counts);
// a product created after the page's last row moves its X-Total-Count, so the page is answered fresh.
BOOST_AUTO_TEST_CASE(a_write_keeps_the_answers_it_did_not_change) {
    temp_dir dir;
    for (const auto& b : backends(dir, "replay-kept.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            keep_alive_connection c(port);
            const std::int64_t first = create_product(port, "Kept first");
            const std::int64_t second = create_product(port, "Kept second");
            const std::string page = "/api/v1/products?offset=0&limit=10";
            const std::string item = "/api/v1/products/" + std::to_string(first);
            const http_reply page_before = c.get(page);
            const http_reply item_before = c.get(item);
            BOOST_TEST_REQUIRE(page_before.status == 200u);
            BOOST_TEST_REQUIRE(item_before.status == 200u);
            const auto replayed = [&] { return metric(port, "storefront_replayed_requests_total"); };

            const http_reply user = send_json(
                port,
                "POST",
                "/api/v1/users",
                R"({"name":"Kept User","email":"kept@example.com","password":"keptpass1","avatar":"https://placehold.co/600x400"})"
            );
            BOOST_TEST_REQUIRE(user.status == 201u, user.body);
            double before = replayed();
            const http_reply page_after_user = c.get(page);
            BOOST_TEST(replayed() - before == 1.0);  // the users' write did not touch it
            BOOST_TEST(page_after_user.body == page_before.body);
            BOOST_TEST(page_after_user.header("etag") == page_before.header("etag"));
            BOOST_TEST(page_after_user.header("x-total-count") == page_before.header("x-total-count"));

            BOOST_TEST_REQUIRE(
                send_json(port, "PUT", "/api/v1/products/" + std::to_string(second), R"({"price":9})")
                    .status == 200u
            );
            before = replayed();
            const http_reply item_after = c.get(item);
            BOOST_TEST(replayed() - before == 1.0);  // another product's update did not touch it
            BOOST_TEST(item_after.body == item_before.body);
            BOOST_TEST_REQUIRE(send_json(port, "PUT", item, R"({"price":8})").status == 200u);
            BOOST_TEST(c.get(item).json().at("price").as_int64() == 8);  // its own update did

            // Appended past the page's last row: the items stay, the total moves, so the answer is new.
            create_product(port, "Kept third");
            const http_reply page_after_create = c.get(page);
            BOOST_TEST(page_after_create.header("x-total-count") != page_before.header("x-total-count"));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_repeated_conditional_get_is_304_until_a_write_then_200) {
    running_server server(config_on("memory"));
    const auto port = server.port();
    const std::string target = "/api/v1/products/" + std::to_string(create_product(port, "Replay tagged"));
    const std::string tag = get(port, target).header("etag");
    BOOST_TEST_REQUIRE(!tag.empty());
    const std::string conditional = get_bytes(target, "If-None-Match: " + tag + "\r\n");
    for (int i = 0; i < 4; ++i) {
        const http_reply r = exchange_one(port, conditional);
        BOOST_TEST(r.status == 304u);
        BOOST_TEST(r.body.empty());
        BOOST_TEST(r.header("etag") == tag);
    }
    BOOST_TEST_REQUIRE(send_json(port, "PUT", target, R"({"price":77})").status == 200u);
    const http_reply changed = exchange_one(port, conditional);
    BOOST_TEST(changed.status == 200u);
    BOOST_TEST(changed.json().at("price").as_int64() == 77);
    BOOST_TEST(changed.header("etag") != tag);
}

BOOST_AUTO_TEST_CASE(a_sandboxs_repeated_get_follows_the_sandboxs_own_writes) {
    running_server server(config_on("memory"));
    const auto port = server.port();
    const std::string list = "/api/v1/products?offset=0&limit=100";
    const std::string shared_list = get(port, list).body;
    for (const std::string& sandbox_way : {std::string("header"), std::string("prefix")}) {
        BOOST_TEST_CONTEXT(sandbox_way) {
            const std::string id = "replay-" + sandbox_way;
            const bool by_header = sandbox_way == "header";
            const std::string path = by_header ? list : "/sandbox/" + id + list;
            const std::string more = by_header ? "X-Sandbox: " + id + "\r\n" : "";
            BOOST_TEST(exchange_one(port, get_bytes(path, more)).body == shared_list);
            BOOST_TEST(exchange_one(port, get_bytes(path, more)).body == shared_list);
            std::vector<std::pair<std::string, std::string>> headers;
            if (by_header) {
                headers.emplace_back("X-Sandbox", id);
            }
            create_product(
                port,
                "Only in " + id,
                by_header ? "/api/v1/products" : "/sandbox/" + id + "/api/v1/products",
                headers
            );
            // The sandbox's write does not move the shared revision: its repeated GET must still see it.
            for (int i = 0; i < 2; ++i) {
                const std::string seen = exchange_one(port, get_bytes(path, more)).body;
                BOOST_TEST(seen.find("Only in " + id) != std::string::npos);
            }
        }
    }
    BOOST_TEST(get(port, list).body == shared_list);
}

BOOST_AUTO_TEST_CASE(with_fault_injection_on_identical_requests_are_each_routed) {
    auto config = config_on("memory");
    config.fault_injection = true;
    running_server server(config);
    const auto port = server.port();
    keep_alive_connection c(port);
    int failed = 0;
    int served = 0;
    for (int i = 0; i < 60; ++i) {
        const auto status = c.get("/api/v1/products/1?_fail_rate=0.5").status;
        // Counted from the first 200 on: a 200 kept and replayed would answer every later request.
        failed += status == 503u && served > 0 ? 1 : 0;
        served += status == 200u ? 1 : 0;
    }
    BOOST_TEST(failed > 0);
    BOOST_TEST(served > 0);
}

BOOST_AUTO_TEST_CASE(replayed_requests_are_counted_and_keep_their_connection_handling) {
    running_server server(config_on("memory"));
    const auto port = server.port();
    const std::string series =
        R"(storefront_http_requests_total{route="/api/v1/categories/{id}",operation="getCategory",method="GET",status="200"})";
    const std::string target = "/api/v1/categories/2";
    BOOST_TEST_REQUIRE(get(port, target).status == 200u);
    // A request is counted after its answer is written, so a client can read /metrics before its last
    // request is counted: wait for the first GET's count before taking it as the base.
    BOOST_TEST_REQUIRE(test::eventually([&] { return metric(port, series) >= 1; }, std::chrono::seconds(5)));
    const double before = metric(port, series);

    // Pipelined: three identical GETs in one write, three answers in order.
    const std::string bytes =
        get_bytes(target) + get_bytes(target) + get_bytes(target, "Connection: close\r\n");
    const raw_result pipelined = raw_exchange_until_close(port, bytes);
    BOOST_TEST(pipelined.closed_by_server);
    const auto replies = parse_responses(pipelined.bytes);
    BOOST_TEST_REQUIRE(replies.size() == 3u);
    for (const auto& r : replies) {
        BOOST_TEST(r.status == 200u);
        BOOST_TEST(r.body == replies.front().body);
    }
    BOOST_TEST(replies.back().header("connection") == "close");

    // Connection: close asked again (replayed now): answered, then the connection ends.
    for (int i = 0; i < 3; ++i) {
        const raw_result closing = raw_exchange_until_close(port, get_bytes(target, "Connection: close\r\n"));
        BOOST_TEST(closing.closed_by_server);
        const auto one = parse_responses(closing.bytes);
        BOOST_TEST_REQUIRE(one.size() == 1u);
        BOOST_TEST(one.front().status == 200u);
        BOOST_TEST(one.front().header("connection") == "close");
    }
    // HTTP/1.0 without keep-alive: closed after the answer, every time.
    for (int i = 0; i < 2; ++i) {
        const raw_result old =
            raw_exchange_until_close(port, "GET " + target + " HTTP/1.0\r\nHost: s\r\n\r\n");
        BOOST_TEST(old.closed_by_server);
        BOOST_TEST(parse_responses(old.bytes).size() == 1u);
    }
    (void
    )test::eventually([&] { return metric(port, series) >= before + 3 + 3 + 2; }, std::chrono::seconds(5));
    BOOST_TEST(metric(port, series) == before + 3 + 3 + 2);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace replay_e2e_file
