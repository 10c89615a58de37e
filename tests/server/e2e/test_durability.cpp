// Durability of the real binary on its default embedded storage (SQLite): writes acknowledged before a
// `kill -9` are all there after a restart and nothing is half-written; a restart without writes changes
// nothing (the seed is not written again). The PostgreSQL runs of the same checks live beside the cluster
// tests.

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/child_process.hpp"
#include "http_client.hpp"
#include "pet_test_helpers.hpp"

using namespace storefront::test;
namespace json = boost::json;

namespace {

// A storefront on `storage`, with fixed secrets and public URL so that tokens and bodies compare across
// restarts; returns its port once it listens.
struct durable_server {
    durable_server(const std::string& storage, const temp_dir& dir)
        : process(
              instance_args(
                  storage,
                  {"--access-secret",
                   "durability-access-secret-0123456789",
                   "--refresh-secret",
                   "durability-refresh-secret-0123456789",
                   "--pet-token-secret",
                   "durability-pet-secret-0123456789",
                   "--public-url",
                   "http://storefront.test"}
              ),
              {},
              dir.path()
          ),
          port(process.wait_listening(std::chrono::seconds(30))) {}
    child_process process;
    std::uint16_t port = 0;
};

struct acknowledged {
    std::mutex mutex;
    std::map<std::int64_t, std::string> products;  // id -> title
    std::map<std::int64_t, std::string> users;     // id -> e-mail
    std::map<std::int64_t, std::int64_t> orders;   // id -> quantity
};

const std::string two_images = R"(["https://x.com/a.png","https://x.com/b.png"])";

// Writes products (thread 0), users (1) and orders (2) until the server goes away; records what was
// acknowledged. Failures after the kill are expected and ignored: only acknowledgements count.
void write_until_killed(std::uint16_t port, int kind, acknowledged& acks, const std::atomic<bool>& stop) {
    for (int i = 0; !stop.load(); ++i) {
        try {
            const std::string n = std::to_string(kind) + "-" + std::to_string(i);
            if (kind == 0) {
                const std::string title = "Durable " + n;
                const auto reply = post_json(
                    port,
                    "/api/v1/products",
                    R"({"title":")" + title + R"(","price":12.5,"description":"d","categoryId":1,"images":)" +
                        two_images + "}"
                );
                if (reply.status == 201u) {
                    std::lock_guard lock(acks.mutex);
                    acks.products[reply.json().at("id").as_int64()] = title;
                }
            } else if (kind == 1) {
                const std::string email = "durable-" + n + "@mail.com";
                const auto reply = post_json(
                    port,
                    "/api/v1/users",
                    R"({"name":"D","email":")" + email +
                        R"(","password":"secret123","avatar":"https://x.com/a.png"})"
                );
                if (reply.status == 201u) {
                    std::lock_guard lock(acks.mutex);
                    acks.users[reply.json().at("id").as_int64()] = email;
                }
            } else {
                const auto quantity = 1 + i;
                const auto reply = post_json(
                    port,
                    "/api/v3/store/order",
                    R"({"petId":1,"quantity":)" + std::to_string(quantity) + R"(,"status":"placed"})"
                );
                if (reply.status == 200u) {
                    std::lock_guard lock(acks.mutex);
                    acks.orders[reply.json().at("id").as_int64()] = quantity;
                }
            }
        } catch (const std::exception&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the server is gone or restarting
        }
    }
}

// Creates products titled "Concurrent <writer>-<i>" one after another until the server goes away; records
// the acknowledged ones. Many of these at once put many writes in each SQLite group commit.
void create_products_until_killed(
    std::uint16_t port, int writer, acknowledged& acks, const std::atomic<bool>& stop
) {
    for (int i = 0; !stop.load(); ++i) {
        try {
            const std::string title = "Concurrent " + std::to_string(writer) + "-" + std::to_string(i);
            const auto reply = post_json(
                port,
                "/api/v1/products",
                R"({"title":")" + title + R"(","price":2.5,"description":"d","categoryId":1,"images":)" +
                    two_images + "}"
            );
            if (reply.status == 201u) {
                std::lock_guard lock(acks.mutex);
                acks.products[reply.json().at("id").as_int64()] = title;
            }
        } catch (const std::exception&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the server is gone
        }
    }
}

// Every product whose title contains "Durable", page by page.
json::array products_titled_durable(std::uint16_t port) {
    json::array all;
    for (int offset = 0;; offset += 100) {
        const auto reply =
            get(port, "/api/v1/products?offset=" + std::to_string(offset) + "&limit=100&title=Durable");
        BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
        const auto page = reply.json().as_array();
        if (page.empty()) {
            return all;
        }
        all.insert(all.end(), page.begin(), page.end());
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(durability)

BOOST_AUTO_TEST_CASE(the_default_storage_is_a_sqlite_file_in_the_working_directory) {
    temp_dir dir;
    child_process server({"--port", "0", "--generated-locations", "1000"}, {}, dir.path());
    BOOST_TEST_REQUIRE(server.wait_for_line("\"listening\"", std::chrono::seconds(30)).has_value());
    BOOST_TEST(std::filesystem::exists(dir.path() / "storefront.db"));
}

BOOST_AUTO_TEST_CASE(writes_acknowledged_before_kill_9_survive_whole) {
    temp_dir dir;
    const std::string storage = "sqlite:" + (dir.path() / "store.db").string();
    acknowledged acks;
    std::atomic<bool> stop{false};
    {
        durable_server server(storage, dir);
        std::vector<std::thread> writers;
        for (int kind = 0; kind < 3; ++kind) {
            writers.emplace_back([&, kind] { write_until_killed(server.port, kind, acks, stop); });
        }
        // Enough of every kind (registrations are slow: each hashes a password), then kill mid-stream.
        const auto enough = [&] {
            std::lock_guard lock(acks.mutex);
            return acks.products.size() >= 20 && acks.users.size() >= 3 && acks.orders.size() >= 20;
        };
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
        while (!enough() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        server.process.kill_hard();  // while the writers are still writing
        stop = true;
        for (auto& w : writers) {
            w.join();
        }
    }
    BOOST_TEST_REQUIRE(acks.products.size() >= 20u);
    BOOST_TEST_REQUIRE(acks.users.size() >= 3u);
    BOOST_TEST_REQUIRE(acks.orders.size() >= 20u);

    durable_server again(storage, dir);
    for (const auto& [id, title] : acks.products) {
        const auto reply = get(again.port, "/api/v1/products/" + std::to_string(id));
        BOOST_TEST_CONTEXT("product " << id) {
            BOOST_TEST_REQUIRE(reply.status == 200u);
            BOOST_TEST(reply.json().at("title").as_string() == title);
        }
    }
    for (const auto& [id, email] : acks.users) {
        const auto reply = get(again.port, "/api/v1/users/" + std::to_string(id));
        BOOST_TEST_CONTEXT("user " << id) {
            BOOST_TEST_REQUIRE(reply.status == 200u);
            BOOST_TEST(reply.json().at("email").as_string() == email);
        }
    }
    for (const auto& [id, quantity] : acks.orders) {
        const auto reply = get(again.port, "/api/v3/store/order/" + std::to_string(id));
        BOOST_TEST_CONTEXT("order " << id) {
            BOOST_TEST_REQUIRE(reply.status == 200u);
            BOOST_TEST(reply.json().at("quantity").as_int64() == quantity);
        }
    }
    // Nothing half-written: every durable product there (acknowledged or caught by the kill) is whole.
    const auto stored = products_titled_durable(again.port);
    BOOST_TEST(stored.size() >= acks.products.size());
    for (const auto& p : stored) {
        BOOST_TEST_CONTEXT(json::serialize(p)) {
            BOOST_TEST(p.at("images").as_array().size() == 2u);
            BOOST_TEST(p.at("category").at("id").as_int64() == 1);
        }
    }
    // The stored password hash still verifies: a user registered before the kill logs in.
    const auto& [first_id, first_email] = *acks.users.begin();
    const auto login = post_json(
        again.port, "/api/v1/auth/login", R"({"email":")" + first_email + R"(","password":"secret123"})"
    );
    BOOST_TEST(login.status == 201u, login.body);
}

// Group commit (issue 21): with many writers at once, writes share commits (the write lane's transactions
// carry more writes than there are transactions); each one acknowledged before the kill is there after a
// restart, whole, under the id it was acknowledged with.
BOOST_AUTO_TEST_CASE(concurrent_writes_acknowledged_before_kill_9_survive_whole) {
    temp_dir dir;
    const std::string storage = "sqlite:" + (dir.path() / "store.db").string();
    constexpr int writers = 16;
    acknowledged acks;
    std::atomic<bool> stop{false};
    {
        child_process process(instance_args(storage), {}, dir.path());
        const auto port = process.wait_listening(std::chrono::seconds(30));
        std::vector<std::thread> threads;
        for (int w = 0; w < writers; ++w) {
            threads.emplace_back([&, w] { create_products_until_killed(port, w, acks, stop); });
        }
        const auto enough = [&] {
            std::lock_guard lock(acks.mutex);
            return acks.products.size() >= 300;
        };
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
        while (!enough() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const double batches = metric(port, "storefront_write_batches_total");
        const double batched = metric(port, "storefront_batched_writes_total");
        BOOST_TEST_MESSAGE(batched << " writes in " << batches << " transactions");
        BOOST_TEST(batched >= 300.0);
        BOOST_TEST(batched > batches);  // commits were shared
        process.kill_hard();            // while every writer is still writing
        stop = true;
        for (auto& t : threads) {
            t.join();
        }
    }
    BOOST_TEST_REQUIRE(acks.products.size() >= 300u);
    BOOST_TEST_MESSAGE(acks.products.size() << " products acknowledged before kill -9");

    child_process again(instance_args(storage), {}, dir.path());
    const auto port = again.wait_listening(std::chrono::seconds(30));
    for (const auto& [id, title] : acks.products) {
        const auto reply = get(port, "/api/v1/products/" + std::to_string(id));
        BOOST_TEST_CONTEXT("product " << id) {
            BOOST_TEST_REQUIRE(reply.status == 200u);
            BOOST_TEST(reply.json().at("title").as_string() == title);
            BOOST_TEST(reply.json().at("images").as_array().size() == 2u);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_restart_without_writes_changes_nothing) {
    temp_dir dir;
    const std::string storage = "sqlite:" + (dir.path() / "store.db").string();
    const std::vector<std::string> views = {
        "/api/v1/products?offset=0&limit=1000",
        "/api/v1/categories",
        "/api/v1/users?offset=0&limit=1000",
        "/api/v3/pet/findByStatus?status=available,pending,sold",
        "/api/v3/store/order/1"};
    std::vector<std::string> before;
    {
        durable_server first(storage, dir);
        // Changes to the seed that a second seeding would undo: a seed pet deleted, a seed order deleted.
        const auto bearer = "Bearer " + [&] {
            const auto reply = pet::request_token(first.port, "petstore-client", "petstore-secret", "");
            BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
            return std::string(reply.json().at("access_token").as_string());
        }();
        const auto deleted = send_request(
            first.port,
            {.method = "DELETE", .target = "/api/v3/pet/1", .headers = {{"Authorization", bearer}}}
        );
        BOOST_TEST_REQUIRE(deleted.status == 200u, deleted.body);
        BOOST_TEST_REQUIRE(
            send_request(first.port, {.method = "DELETE", .target = "/api/v3/store/order/1"}).status == 200u
        );
        for (const auto& v : views) {
            before.push_back(get(first.port, v).body);
        }
        first.process.signal(SIGTERM);
        BOOST_TEST_REQUIRE(first.process.wait_exit(std::chrono::seconds(20)).value_or(-1) == 0);
    }
    for (int restart = 1; restart <= 2; ++restart) {
        durable_server again(storage, dir);
        BOOST_TEST_CONTEXT("restart " << restart) {
            const auto pet = send_request(
                again.port, {.target = "/api/v3/pet/1", .headers = {{"api_key", "special-key"}}}
            );
            BOOST_TEST(pet.status == 404u, "the deleted seed pet came back: " << pet.body);
            for (std::size_t i = 0; i < views.size(); ++i) {
                BOOST_TEST_CONTEXT(views[i]) {
                    BOOST_TEST(get(again.port, views[i]).body == before[i]);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
