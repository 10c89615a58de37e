// Back-pressure on the real binary over HTTP: when the storage is jammed (another process holds the SQLite
// write lock) and the bounded storage queue is full, writes are answered at once with 503 "Server busy" and
// Retry-After; the writes that waited for the lock give up with 503 "Storage unavailable" after the busy
// timeout; cached pages keep answering; nothing refused is applied; and storefront recovers by itself.

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "common/sqlite_write_lock.hpp"
#include "http_client.hpp"

using namespace storefront::test;
namespace json = boost::json;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

namespace {

struct timed_reply {
    http_reply reply;
    milliseconds elapsed{0};
};

timed_reply create_product(std::uint16_t port, const std::string& title) {
    const auto start = steady_clock::now();
    auto reply = post_json(
        port,
        "/api/v1/products",
        R"({"title":")" + title +
            R"(","price":10,"description":"d","categoryId":1,"images":["https://x.com/a.png"]})"
    );
    return {std::move(reply), std::chrono::duration_cast<milliseconds>(steady_clock::now() - start)};
}

std::size_t products_titled(std::uint16_t port, const std::string& prefix) {
    const auto list = get(port, "/api/v1/products?title=" + prefix).json().as_array();
    return list.size();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(storage_backpressure)

BOOST_AUTO_TEST_CASE(a_jammed_storage_gives_quick_503s_with_retry_after_and_recovers) {
    temp_dir dir;
    const std::string db_path = (dir.path() / "jam.db").string();
    // One storage thread and at most one call waiting or running: the second concurrent write is refused.
    child_process server(
        instance_args("sqlite:" + db_path, {"--storage-threads", "1", "--storage-queue", "1"}), {}, dir.path()
    );
    const auto port = server.wait_listening(std::chrono::seconds(30));
    const std::string page = "/api/v1/products?offset=0&limit=10";
    const std::string cached_page = get(port, page).body;  // built and cached before the jam

    sqlite_write_lock jam(db_path, "BEGIN EXCLUSIVE");
    std::vector<std::future<timed_reply>> writes;
    for (int i = 0; i < 6; ++i) {
        writes.push_back(std::async(std::launch::async, [port, i] {
            return create_product(port, "Jammed" + std::to_string(i));
        }));
        std::this_thread::sleep_for(milliseconds(50));  // the first ones reach the pool first
    }
    // While writes wait for the lock, the cached page is still served, from memory.
    const auto read_start = steady_clock::now();
    const auto during = get(port, page);
    BOOST_TEST(during.status == 200u);
    BOOST_TEST(during.body == cached_page);
    BOOST_TEST((steady_clock::now() - read_start < milliseconds(1000)));

    int busy = 0;
    int unavailable = 0;
    for (auto& write : writes) {
        const auto [reply, elapsed] = write.get();
        BOOST_TEST_INFO("status " << reply.status << " after " << elapsed.count() << " ms: " << reply.body);
        BOOST_TEST_REQUIRE(reply.status == 503u);
        const auto message = std::string(reply.json().at("message").as_string());
        if (message == "Server busy, retry later") {
            ++busy;
            BOOST_TEST(reply.header("retry-after") == "1");
            BOOST_TEST(elapsed.count() < 1000);  // refused at once, not after waiting
        } else {
            BOOST_TEST(message == "Storage unavailable");
            ++unavailable;
            BOOST_TEST(reply.header("retry-after") == "2");
            BOOST_TEST(elapsed.count() < 12000);  // the 5 s busy timeout, queued behind one more
        }
    }
    BOOST_TEST_MESSAGE(
        "jammed writes: " << busy << " refused at once (queue full), " << unavailable
                          << " gave up after the busy timeout"
    );
    BOOST_TEST(busy >= 1);                              // the queue was full
    BOOST_TEST(unavailable >= 1);                       // the lock holder outlasted the busy timeout
    BOOST_TEST(products_titled(port, "Jammed") == 0u);  // nothing refused was applied

    jam.release();
    const auto after = create_product(port, "Recovered");
    BOOST_TEST(after.reply.status == 201u, after.reply.body);
    BOOST_TEST(products_titled(port, "Recovered") == 1u);
    BOOST_TEST(get(port, "/api/v1/products?offset=0&limit=10").status == 200u);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(20)).value_or(-1) == 0);
}

// GraphQL mutations meet the same jam: 503 with Retry-After and SERVICE_UNAVAILABLE, never a hang and never
// INTERNAL_SERVER_ERROR; nothing applied; the next mutation after the jam works.
BOOST_AUTO_TEST_CASE(a_jammed_storage_gives_graphql_503s_with_retry_after) {
    temp_dir dir;
    const std::string db_path = (dir.path() / "jam-graphql.db").string();
    child_process server(
        instance_args("sqlite:" + db_path, {"--storage-threads", "1", "--storage-queue", "1"}), {}, dir.path()
    );
    const auto port = server.wait_listening(std::chrono::seconds(30));
    const auto add_category = [port](const std::string& name) {
        const json::object body{
            {"query",
             "mutation { addCategory(data: {name: \"" + name +
                 "\", image: \"https://x.com/a.png\"}) { id } }"}};
        return post_json(port, "/graphql", json::serialize(body));
    };
    sqlite_write_lock jam(db_path, "BEGIN EXCLUSIVE");
    std::vector<std::future<timed_reply>> writes;
    for (int i = 0; i < 3; ++i) {
        writes.push_back(std::async(std::launch::async, [&add_category, i] {
            const auto start = steady_clock::now();
            auto reply = add_category("Jammed " + std::to_string(i));
            return timed_reply{
                std::move(reply), std::chrono::duration_cast<milliseconds>(steady_clock::now() - start)};
        }));
        std::this_thread::sleep_for(milliseconds(50));
    }
    for (auto& write : writes) {
        const auto [reply, elapsed] = write.get();
        BOOST_TEST_INFO("status " << reply.status << " after " << elapsed.count() << " ms: " << reply.body);
        BOOST_TEST_REQUIRE(reply.status == 503u);
        BOOST_TEST(!reply.header("retry-after").empty());
        const auto doc = reply.json();
        const auto& error = doc.at("errors").as_array().at(0);
        BOOST_TEST(error.at("extensions").at("code").as_string() == "SERVICE_UNAVAILABLE");
        BOOST_TEST(elapsed.count() < 12000);
    }
    jam.release();
    BOOST_TEST(get(port, "/api/v1/categories").json().as_array().size() == 5u);  // nothing applied
    const auto after = add_category("Recovered");
    BOOST_TEST(after.status == 200u, after.body);
    BOOST_TEST(!after.json().as_object().contains("errors"), after.body);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(20)).value_or(-1) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
