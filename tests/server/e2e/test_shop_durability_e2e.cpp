// The shop on durable storage, on the real binary (issue 42): `kill -9` during a storm of checkouts and
// payments loses no acknowledged order or payment, and stock plus the units of every live order equals the
// starting stock (nothing lost, nothing sold twice); buyers racing for the last units get exactly the
// stock. On SQLite in server_tests; on PostgreSQL in server_tests_pg, where the race runs across two
// instances on one database.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "common/eventually.hpp"
#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"

using namespace storefront::test;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace shop_durability_e2e_file {
namespace {

// A SQLite file in a directory of its own, or a fresh PostgreSQL database when TEST_PG_DSN is set.
struct durable_storage {
    durable_storage() {
        if (std::getenv("TEST_PG_DSN")) {
            spec = create_test_database();
            shared = true;
        } else {
            dir = std::make_unique<temp_dir>();
            spec = "sqlite:" + (dir->path() / "shop.db").string();
        }
    }
    std::unique_ptr<temp_dir> dir;
    std::string spec;
    bool shared = false;  // several instances may run on it
};

// One storefront process on `storage`, with the secrets every instance of a deployment shares.
struct instance {
    explicit instance(const durable_storage& storage)
        : process(instance_args(
              storage.spec,
              {"--order-ttl",
               "600",
               "--access-secret",
               "shared-access-secret-0123456789",
               "--refresh-secret",
               "shared-refresh-secret-0123456789"}
          )),
          port(process.wait_listening(60s)) {}
    child_process process;
    std::uint16_t port = 0;
};

http_reply call(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& token,
    const std::string& body = {}
) {
    http_request_spec spec{.method = method, .target = target, .body = body};
    if (!body.empty()) {
        spec.content_type = "application/json";
    }
    spec.headers.emplace_back("Authorization", "Bearer " + token);
    return send_request(port, spec);
}

std::string login(std::uint16_t port, const std::string& email, const std::string& password) {
    const auto reply = post_json(
        port, "/api/v1/auth/login", R"({"email":")" + email + R"(","password":")" + password + "\"}"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return std::string(reply.json().at("access_token").as_string());
}

// A newly registered customer's access token.
std::string new_buyer(std::uint16_t port, const std::string& name) {
    const std::string email = name + "@buyers.example";
    const auto created = post_json(
        port,
        "/api/v1/users",
        R"({"name":"Buyer","email":")" + email + R"(","password":"secret123","avatar":"https://x.com/a.png"})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    return login(port, email, "secret123");
}

std::int64_t new_product(std::uint16_t port, int stock) {
    const auto created = post_json(
        port,
        "/api/v1/products",
        R"({"title":"Durable item","price":12.5,"description":"d","categoryId":1,)"
        R"("images":["https://x.com/p.png"],"stock":)" +
            std::to_string(stock) + "}"
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    return created.json().at("id").as_int64();
}

std::int64_t stock_of(std::uint16_t port, std::int64_t id) {
    return get(port, "/api/v1/products/" + std::to_string(id)).json().at("stock").as_int64();
}

const std::string address =
    R"({"shippingAddress":{"name":"Ada","line1":"1 Main St","city":"Springfield","postalCode":"12345","country":"US"}})";
const std::string good_card =
    R"({"card":{"number":"4242424242424242","expMonth":12,"expYear":2099,"cvc":"123"}})";

// Units of `product` held by every order that still holds stock (pending_payment, paid, shipped,
// delivered), over all users' orders as an admin lists them.
std::int64_t units_held(std::uint16_t port, const std::string& admin, std::int64_t product) {
    std::int64_t units = 0;
    for (std::size_t offset = 0;; offset += 100) {
        const auto page =
            call(port, "GET", "/api/v1/orders?limit=100&offset=" + std::to_string(offset), admin);
        BOOST_TEST_REQUIRE(page.status == 200u, page.body);
        const auto orders = page.json().as_array();
        for (const auto& order : orders) {
            const auto status = order.at("status").as_string();
            if (status == "cancelled" || status == "expired") {
                continue;
            }
            for (const auto& item : order.at("items").as_array()) {
                if (item.at("productId").as_int64() == product) {
                    units += item.at("quantity").as_int64();
                }
            }
        }
        if (orders.size() < 100) {
            return units;
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shop_durability)

BOOST_AUTO_TEST_CASE(acknowledged_orders_and_payments_survive_kill_9_and_stock_adds_up) {
    const durable_storage storage;
    constexpr int starting_stock = 1000;
    constexpr int buyers = 8;
    std::mutex mutex;
    std::map<std::int64_t, std::int64_t> orders;    // acknowledged order id -> units
    std::map<std::int64_t, std::int64_t> payments;  // acknowledged succeeded payment id -> order id
    std::int64_t product = 0;
    {
        instance first(storage);
        product = new_product(first.port, starting_stock);
        std::vector<std::string> tokens;
        for (int b = 0; b < buyers; ++b) {
            tokens.push_back(new_buyer(first.port, "storm" + std::to_string(b)));
        }
        std::atomic<bool> stop{false};
        std::vector<std::thread> threads;
        for (int b = 0; b < buyers; ++b) {
            threads.emplace_back([&, b] {
                for (int i = 0; !stop; ++i) {
                    try {
                        const std::int64_t units = 1 + (i % 3);
                        const auto added = call(
                            first.port,
                            "POST",
                            "/api/v1/cart/items",
                            tokens[b],
                            R"({"productId":)" + std::to_string(product) + R"(,"quantity":)" +
                                std::to_string(units) + "}"
                        );
                        if (added.status != 201u) {
                            continue;
                        }
                        const auto order = call(first.port, "POST", "/api/v1/orders", tokens[b], address);
                        if (order.status != 201u) {
                            continue;
                        }
                        const auto order_id = order.json().at("id").as_int64();
                        {
                            std::lock_guard lock(mutex);
                            orders[order_id] = units;
                        }
                        if (i % 2 == 0) {
                            const auto paid = call(
                                first.port,
                                "POST",
                                "/api/v1/orders/" + std::to_string(order_id) + "/payments",
                                tokens[b],
                                good_card
                            );
                            if (paid.status == 201u) {
                                std::lock_guard lock(mutex);
                                payments[paid.json().at("id").as_int64()] = order_id;
                            }
                        }
                    } catch (const std::exception&) {
                        std::this_thread::sleep_for(5ms);  // the process is gone: keep trying until stopped
                    }
                }
            });
        }
        const auto deadline = steady::now() + 60s;
        while (steady::now() < deadline) {
            {
                std::lock_guard lock(mutex);
                if (orders.size() >= 60 && payments.size() >= 20) {
                    break;
                }
            }
            std::this_thread::sleep_for(5ms);
        }
        first.process.kill_hard();  // while every buyer is still buying
        stop = true;
        for (auto& t : threads) {
            t.join();
        }
    }
    BOOST_TEST_REQUIRE(orders.size() >= 60u);
    BOOST_TEST_REQUIRE(payments.size() >= 20u);

    instance again(storage);
    const auto admin = login(again.port, "admin@mail.com", "admin123");
    for (const auto& [id, units] : orders) {
        BOOST_TEST_CONTEXT("order " << id) {
            const auto reply = call(again.port, "GET", "/api/v1/orders/" + std::to_string(id), admin);
            BOOST_TEST_REQUIRE(reply.status == 200u);
            const auto body = reply.json();
            const auto& items = body.at("items").as_array();
            BOOST_TEST_REQUIRE(items.size() == 1u);
            BOOST_TEST(items[0].at("productId").as_int64() == product);
            BOOST_TEST(items[0].at("quantity").as_int64() == units);
        }
    }
    for (const auto& [id, order] : payments) {
        BOOST_TEST_CONTEXT("payment " << id << " of order " << order) {
            const auto order_path = "/api/v1/orders/" + std::to_string(order);
            BOOST_TEST(call(again.port, "GET", order_path, admin).json().at("status").as_string() == "paid");
            const auto listed = call(again.port, "GET", order_path + "/payments", admin);
            BOOST_TEST_REQUIRE(listed.status == 200u);
            bool found = false;
            const auto listed_body = listed.json();
            for (const auto& p : listed_body.as_array()) {
                if (p.at("id").as_int64() == id) {
                    found = true;
                    BOOST_TEST(p.at("status").as_string() == "succeeded");
                }
            }
            BOOST_TEST(found);
        }
    }
    BOOST_TEST(stock_of(again.port, product) + units_held(again.port, admin, product) == starting_stock);
}

BOOST_AUTO_TEST_CASE(buyers_racing_for_the_last_units_get_exactly_the_stock) {
    const durable_storage storage;
    constexpr int stock = 5;
    constexpr int buyers = 20;
    // PostgreSQL: two instances on one database, the buyers alternating between them.
    std::vector<std::unique_ptr<instance>> instances;
    instances.push_back(std::make_unique<instance>(storage));
    if (storage.shared) {
        instances.push_back(std::make_unique<instance>(storage));
    }
    const auto port_of = [&](int buyer) { return instances[buyer % instances.size()]->port; };
    const auto product = new_product(port_of(0), stock);
    std::vector<std::string> tokens;
    for (int b = 0; b < buyers; ++b) {
        tokens.push_back(new_buyer(port_of(b), "racer" + std::to_string(b)));
        const auto added = call(
            port_of(b),
            "POST",
            "/api/v1/cart/items",
            tokens[b],
            R"({"productId":)" + std::to_string(product) + R"(,"quantity":1})"
        );
        BOOST_TEST_REQUIRE(added.status == 201u, added.body);
    }
    std::atomic<int> ready{0};
    std::vector<unsigned> statuses(buyers);
    std::vector<std::thread> threads;
    for (int b = 0; b < buyers; ++b) {
        threads.emplace_back([&, b] {
            ++ready;
            while (ready < buyers) {
                std::this_thread::yield();
            }
            statuses[b] = call(port_of(b), "POST", "/api/v1/orders", tokens[b], address).status;
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 201u) == stock);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 409u) == buyers - stock);
    for (const auto& i : instances) {
        BOOST_TEST(eventually([&] { return stock_of(i->port, product) == 0; }, 2000ms));
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace shop_durability_e2e_file
