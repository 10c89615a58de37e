// End to end over HTTP, in process: /healthz, /readyz on memory and SQLite (starting, ready, draining),
// many probes at once sharing one storage check, and keep-alive connections closing while draining.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;
using namespace storefront::test;

namespace {

std::string status_of(const http_reply& reply) {
    return std::string(reply.json().at("status").as_string());
}

server::server_config sqlite_config(const temp_dir& dir) {
    server::server_config c = test_config();
    c.storage.backend = "sqlite:" + (dir.path() / "store.db").string();
    c.storage.generated_locations = 1000;
    return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(health_endpoints)

BOOST_AUTO_TEST_CASE(healthz_answers_ok_json_uncached) {
    const auto reply = get(shared_server().port(), "/healthz");
    BOOST_TEST(reply.status == 200u);
    BOOST_TEST(reply.header("content-type").starts_with("application/json"));
    BOOST_TEST(reply.header("cache-control") == "no-store");
    BOOST_TEST(status_of(reply) == "ok");
    BOOST_TEST(send_request(shared_server().port(), {.method = "HEAD", .target = "/healthz"}).status == 200u);
    BOOST_TEST(post_json(shared_server().port(), "/healthz", "{}").status == 405u);
}

BOOST_AUTO_TEST_CASE(readyz_is_ready_on_memory) {
    const auto reply = get(shared_server().port(), "/readyz");
    BOOST_TEST(reply.status == 200u, reply.body);
    BOOST_TEST(status_of(reply) == "ready");
    BOOST_TEST(reply.header("retry-after").empty());
}

BOOST_AUTO_TEST_CASE(readyz_is_ready_on_sqlite_and_many_probes_at_once_all_get_an_answer) {
    const temp_dir dir;
    running_server server(sqlite_config(dir));
    BOOST_TEST(get(server.port(), "/readyz").status == 200u);
    // A flood of probes shares one storage check at a time (single flight, cached): all answer 200 quickly.
    std::atomic<int> ready{0};
    std::vector<std::thread> probes;
    const auto started = std::chrono::steady_clock::now();
    for (int t = 0; t < 8; ++t) {
        probes.emplace_back([&] {
            for (int i = 0; i < 25; ++i) {
                if (get(server.port(), "/readyz").status == 200u) {
                    ++ready;
                }
            }
        });
    }
    for (auto& p : probes) {
        p.join();
    }
    BOOST_TEST(ready.load() == 200);
    BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(20)));
    BOOST_TEST(server.app().storage_calls().rejected() == 0u);
}

// An operator's top -H, ps -L, perf and gdb tell the threads apart: each I/O thread by its port, the write
// lane.
BOOST_AUTO_TEST_CASE(threads_are_named_for_the_operators_tools) {
    const temp_dir dir;
    running_server server(sqlite_config(dir));
    BOOST_TEST(get(server.port(), "/readyz").status == 200u);
    std::set<std::string> names;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        names.insert(name);
    }
    BOOST_TEST(names.contains("sf-io:" + std::to_string(server.port()) + "/0"));
    BOOST_TEST(names.contains("sf-write/0"));  // SQLite's writes go through the write lane
}

BOOST_AUTO_TEST_CASE(readyz_says_starting_until_the_instance_is_marked_started) {
    server::server_config config = test_config();
    server::composition_root app(config);
    server::http_server listener(config, app.listener());
    listener.start();
    const auto starting = get(listener.port(), "/readyz");
    BOOST_TEST(starting.status == 503u);
    BOOST_TEST(status_of(starting) == "starting");
    BOOST_TEST(starting.header("retry-after") == "2");
    BOOST_TEST(get(listener.port(), "/healthz").status == 200u);  // alive all the same
    app.state().mark_started();
    BOOST_TEST(get(listener.port(), "/readyz").status == 200u);
    listener.begin_shutdown();
    BOOST_TEST(listener.wait(std::chrono::seconds(5)));
}

BOOST_AUTO_TEST_CASE(draining_turns_readyz_503_and_closes_keep_alive_connections_after_their_next_answer) {
    running_server server(test_config());
    keep_alive_connection kept(server.port());
    const auto before = kept.get("/api/v1/categories/1");
    BOOST_TEST(before.status == 200u);
    BOOST_TEST(!before.connection_closed);

    server.app().state().begin_drain();
    const auto readiness = get(server.port(), "/readyz");
    BOOST_TEST(readiness.status == 503u);
    BOOST_TEST(status_of(readiness) == "draining");
    BOOST_TEST(!readiness.header("retry-after").empty());

    // Still served normally, but this answer says close and the server closes the connection.
    const auto during = kept.get("/api/v1/categories/1");
    BOOST_TEST(during.status == 200u);
    BOOST_TEST(during.connection_closed);
    BOOST_TEST(during.header("connection") == "close");
    BOOST_TEST(kept.closed_by_server(std::chrono::milliseconds(2000)));
    // New connections are still answered during the drain.
    BOOST_TEST(get(server.port(), "/api/v1/products/1").status == 200u);
    BOOST_TEST(get(server.port(), "/healthz").status == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
