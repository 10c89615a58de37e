// End to end on the real binary (issue 42): the shop's HTTP layer, one server shared by the cases (memory
// here, PostgreSQL under server_tests_pg), plus one with a short --order-ttl and the access log on for expiry
// and the log check. Each case registers its own users and creates its own products, so cases do not see
// each other's carts, orders or stock.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "common/eventually.hpp"
#include "common/pg_server.hpp"
#include "http_client.hpp"
#include "sse_client.hpp"

namespace json = boost::json;
using namespace storefront::test;
using namespace std::chrono_literals;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace shop_e2e_file {
namespace {

// Memory, or a fresh PostgreSQL database when TEST_PG_DSN is set (server_tests_pg).
std::string shop_storage() {
    return std::getenv("TEST_PG_DSN") ? create_test_database() : std::string("memory");
}

std::vector<std::string> shop_args(const std::string& ttl_seconds, bool access_log) {
    return {
        "--port",
        "0",
        "--threads",
        "2",
        "--generated-locations",
        "1000",
        "--storage",
        shop_storage(),
        "--access-log",
        access_log ? "true" : "false",
        "--order-ttl",
        ttl_seconds};
}

// The server every case but expiry shares, started on first use.
std::uint16_t shop_port() {
    static std::unique_ptr<child_process> server;
    static std::uint16_t port = 0;
    if (!server) {
        server = std::make_unique<child_process>(shop_args("600", false));
        port = server->wait_listening(20s);
    }
    return port;
}

http_reply call(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& token,
    const std::string& body = {},
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    http_request_spec spec{.method = method, .target = target, .body = body};
    if (!body.empty()) {
        spec.content_type = "application/json";
    }
    if (!token.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + token);
    }
    for (const auto& h : headers) {
        spec.headers.push_back(h);
    }
    return send_request(port, spec);
}

std::string login(std::uint16_t port, const std::string& email, const std::string& password) {
    const auto reply = post_json(
        port, "/api/v1/auth/login", R"({"email":")" + email + R"(","password":")" + password + "\"}"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return std::string(reply.json().at("access_token").as_string());
}

// A new customer's access token, or "" when registering or logging in failed (no assertion: threads call it).
std::string try_customer(std::uint16_t port) {
    static std::atomic<int> n{0};
    const std::string email = "buyer" + std::to_string(++n) + "-" +
                              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
                              "@example.com";
    const auto created = post_json(
        port,
        "/api/v1/users",
        R"({"name":"Buyer","email":")" + email + R"(","password":"secret123","avatar":"https://x.com/a.png"})"
    );
    const auto logged_in =
        post_json(port, "/api/v1/auth/login", R"({"email":")" + email + R"(","password":"secret123"})");
    if (created.status != 201u || logged_in.status != 201u) {
        return {};
    }
    return std::string(logged_in.json().at("access_token").as_string());
}

std::string customer(std::uint16_t port) {
    auto token = try_customer(port);
    BOOST_TEST_REQUIRE(!token.empty());
    return token;
}

std::string admin(std::uint16_t port) {
    return login(port, "admin@mail.com", "admin123");
}

// A new product priced `price` with `stock` units; its id.
std::int64_t product(std::uint16_t port, const std::string& price, int stock) {
    static std::atomic<int> n{0};
    const auto created = post_json(
        port,
        "/api/v1/products",
        R"({"title":"Shop item )" + std::to_string(++n) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + R"(","price":)" +
            price + R"(,"description":"d","categoryId":1,"images":["https://x.com/p.png"],"stock":)" +
            std::to_string(stock) + "}"
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    BOOST_TEST(created.json().at("stock").as_int64() == stock);
    return created.json().at("id").as_int64();
}

std::int64_t stock_of(std::uint16_t port, std::int64_t id) {
    return get(port, "/api/v1/products/" + std::to_string(id)).json().at("stock").as_int64();
}

// Whether product `id` shows `stock` within 2 s: on PostgreSQL a product body shows a stock change once the
// catalogue's notification arrives (milliseconds), as it shows another instance's writes; at once elsewhere.
bool shows_stock(std::uint16_t port, std::int64_t id, std::int64_t stock) {
    return eventually([&] { return stock_of(port, id) == stock; }, 2000ms);
}

http_reply add(
    std::uint16_t port, const std::string& token, std::int64_t product_id, const std::string& quantity
) {
    return call(
        port,
        "POST",
        "/api/v1/cart/items",
        token,
        R"({"productId":)" + std::to_string(product_id) + R"(,"quantity":)" + quantity + "}"
    );
}

const std::string address =
    R"({"shippingAddress":{"name":"Ada","line1":"1 Main St","city":"Springfield","postalCode":"12345","country":"us"}})";

http_reply checkout(
    std::uint16_t port,
    const std::string& token,
    const std::string& body = address,
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    return call(port, "POST", "/api/v1/orders", token, body, headers);
}

std::string card(const std::string& number, int year = 2099, const std::string& cvc = "123") {
    return R"({"card":{"number":")" + number + R"(","expMonth":12,"expYear":)" + std::to_string(year) +
           R"(,"cvc":")" + cvc + "\"}}";
}

std::string order_path(std::int64_t id) {
    return "/api/v1/orders/" + std::to_string(id);
}

http_reply pay(std::uint16_t port, const std::string& token, std::int64_t order, const std::string& number) {
    return call(port, "POST", order_path(order) + "/payments", token, card(number));
}

// A pending order of one unit of a new product priced `price`; its id.
std::int64_t pending_order(std::uint16_t port, const std::string& token, const std::string& price = "20") {
    const auto id = product(port, price, 10);
    BOOST_TEST_REQUIRE(add(port, token, id, "1").status == 201u);
    const auto order = checkout(port, token);
    BOOST_TEST_REQUIRE(order.status == 201u, order.body);
    return order.json().at("id").as_int64();
}

std::string status_of(std::uint16_t port, const std::string& token, std::int64_t order) {
    return std::string(call(port, "GET", order_path(order), token).json().at("status").as_string());
}

std::string message_of(const http_reply& reply) {
    const auto doc = reply.json();
    const auto& m = doc.at("message");
    return m.is_string() ? std::string(m.as_string()) : json::serialize(m);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shop_e2e)

// Add to cart (a client's price ignored), coupon, checkout (stock reserved, cart emptied), pay, history.
BOOST_AUTO_TEST_CASE(whole_flow_from_cart_to_paid_order) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto id = product(port, "19.99", 10);
    BOOST_TEST(call(port, "GET", "/api/v1/cart", "").status == 401u);

    const auto empty = call(port, "GET", "/api/v1/cart", token);
    BOOST_TEST(empty.status == 200u);
    BOOST_TEST(empty.json().at("items").as_array().empty());

    const auto added = call(
        port,
        "POST",
        "/api/v1/cart/items",
        token,
        R"({"productId":)" + std::to_string(id) + R"(,"quantity":2,"price":0.01,"total":0.01})"
    );
    BOOST_TEST_REQUIRE(added.status == 201u, added.body);
    BOOST_TEST(
        added.body.find(R"("price":19.99,"quantity":2,"lineTotal":39.98)") != std::string::npos, added.body
    );
    BOOST_TEST(
        added.body.find(R"("subtotal":39.98,"discount":0,"total":39.98)") != std::string::npos, added.body
    );
    BOOST_TEST(added.json().at("currency").as_string() == "USD");

    const auto coupon = call(port, "POST", "/api/v1/cart/coupon", token, R"({"code":"save10"})");
    BOOST_TEST_REQUIRE(coupon.status == 200u, coupon.body);
    BOOST_TEST(
        coupon.body.find(R"("discount":4,"total":35.98,"coupon":"SAVE10")") != std::string::npos, coupon.body
    );
    BOOST_TEST(shows_stock(port, id, 10));  // a cart reserves nothing

    const auto order = checkout(port, token);
    BOOST_TEST_REQUIRE(order.status == 201u, order.body);
    const auto doc = order.json();
    BOOST_TEST(doc.at("status").as_string() == "pending_payment");
    BOOST_TEST(
        order.body.find(R"("subtotal":39.98,"discount":4,"shipping":5,"total":40.98)") != std::string::npos,
        order.body
    );
    BOOST_TEST(doc.at("shippingAddress").at("country").as_string() == "US");
    BOOST_TEST(!doc.at("expiresAt").is_null());
    BOOST_TEST(shows_stock(port, id, 8));
    BOOST_TEST(call(port, "GET", "/api/v1/cart", token).json().at("items").as_array().empty());

    const auto order_id = doc.at("id").as_int64();
    const auto paid = pay(port, token, order_id, "4242424242424242");
    BOOST_TEST_REQUIRE(paid.status == 201u, paid.body);
    BOOST_TEST(paid.json().at("status").as_string() == "succeeded");
    BOOST_TEST(paid.json().at("card").at("last4").as_string() == "4242");
    BOOST_TEST(paid.json().at("card").at("brand").as_string() == "visa");
    BOOST_TEST(paid.body.find("4242424242424242") == std::string::npos);
    BOOST_TEST(paid.body.find(R"("amount":40.98)") != std::string::npos, paid.body);
    BOOST_TEST(status_of(port, token, order_id) == "paid");
    BOOST_TEST(pay(port, token, order_id, "4242424242424242").status == 409u);

    const auto history = call(port, "GET", "/api/v1/orders?limit=1", token);
    BOOST_TEST(history.status == 200u);
    BOOST_TEST(history.header("x-total-count") == "1");
    BOOST_TEST(history.json().as_array().at(0).at("id").as_int64() == order_id);
    const auto payments = call(port, "GET", order_path(order_id) + "/payments", token);
    BOOST_TEST(payments.status == 200u);
    BOOST_TEST(payments.json().as_array().size() == 1u);

    // A second checkout with nothing in the cart.
    BOOST_TEST(checkout(port, token).status == 409u);
}

// Every test card of the fake processor, a card failing Luhn, an expired one, and any other valid number.
BOOST_AUTO_TEST_CASE(every_test_card_answers_as_documented) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto order = pending_order(port, token);
    const std::pair<const char*, const char*> declines[] = {
        {"4000000000000002", "card_declined"},
        {"4000000000009995", "insufficient_funds"},
        {"4000000000000069", "expired_card"},
        {"4000000000000127", "incorrect_cvc"}};
    for (const auto& [number, code] : declines) {
        const auto reply = pay(port, token, order, number);
        BOOST_TEST(reply.status == 402u, number << " " << reply.body);
        BOOST_TEST(reply.json().at("status").as_string() == "failed");
        BOOST_TEST(reply.json().at("failureCode").as_string() == code);
        BOOST_TEST(status_of(port, token, order) == "pending_payment");
    }
    const auto luhn = pay(port, token, order, "4242424242424241");
    BOOST_TEST(luhn.status == 400u, luhn.body);
    BOOST_TEST(message_of(luhn).find("card.number") != std::string::npos, luhn.body);
    const auto expired =
        call(port, "POST", order_path(order) + "/payments", token, card("4242424242424242", 2020));
    BOOST_TEST(expired.status == 402u, expired.body);
    const auto no_card =
        call(port, "POST", order_path(order) + "/payments", token, R"({"card":{"number":4242}})");
    BOOST_TEST(no_card.status == 400u);
    BOOST_TEST(message_of(no_card).find("card.number") != std::string::npos, no_card.body);
    const auto other = pay(port, token, order, "5555555555554444");
    BOOST_TEST_REQUIRE(other.status == 201u, other.body);
    BOOST_TEST(other.json().at("card").at("brand").as_string() == "mastercard");
    BOOST_TEST(status_of(port, token, order) == "paid");
    BOOST_TEST(call(port, "GET", order_path(order) + "/payments", token).json().as_array().size() == 5u);
}

// The order's state answers before the card: another user's order is 404 and a settled one 409 whatever
// the card (a Luhn failure, an expired card), as for a good card; only a payable order gets the card's
// own answer.
BOOST_AUTO_TEST_CASE(the_orders_state_answers_before_the_card) {
    const auto port = shop_port();
    const auto buyer = customer(port);
    const auto stranger = customer(port);
    const auto order = pending_order(port, buyer);
    const auto expired = [&](const std::string& token) {
        return call(port, "POST", order_path(order) + "/payments", token, card("4242424242424242", 2020));
    };
    BOOST_TEST(pay(port, stranger, order, "4242424242424241").status == 404u);
    BOOST_TEST(expired(stranger).status == 404u);
    BOOST_TEST(pay(port, stranger, order, "4242424242424242").status == 404u);
    BOOST_TEST(pay(port, buyer, order, "4242424242424241").status == 400u);
    BOOST_TEST(expired(buyer).status == 402u);
    BOOST_TEST(status_of(port, buyer, order) == "pending_payment");
    BOOST_TEST_REQUIRE(pay(port, buyer, order, "4242424242424242").status == 201u);
    BOOST_TEST(pay(port, buyer, order, "4242424242424241").status == 409u);
    BOOST_TEST(expired(buyer).status == 409u);
    BOOST_TEST(pay(port, buyer, order, "4242424242424242").status == 409u);
    BOOST_TEST(call(port, "GET", order_path(order) + "/payments", buyer).json().as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(three_d_secure_approved_and_failed) {
    const auto port = shop_port();
    const auto token = customer(port);
    for (const std::string result : {"approve", "fail"}) {
        const auto order = pending_order(port, token);
        const auto started = pay(port, token, order, "4000002500003155");
        BOOST_TEST_REQUIRE(started.status == 201u, started.body);
        const auto doc = started.json();
        BOOST_TEST(doc.at("status").as_string() == "requires_action");
        BOOST_TEST(doc.at("nextAction").at("type").as_string() == "three_d_secure");
        const auto payment = doc.at("id").as_int64();
        const std::string url(doc.at("nextAction").at("url").as_string());
        const std::string path = "/api/v1/payments/" + std::to_string(payment) + "/3ds";
        BOOST_TEST(url.size() > path.size());
        BOOST_TEST(url.substr(url.size() - path.size()) == path);
        BOOST_TEST(status_of(port, token, order) == "pending_payment");
        BOOST_TEST(call(port, "POST", path, token, R"({"result":"maybe"})").status == 400u);
        const auto done = call(port, "POST", path, token, R"({"result":")" + result + "\"}");
        if (result == "approve") {
            BOOST_TEST(done.status == 200u, done.body);
            BOOST_TEST(done.json().at("status").as_string() == "succeeded");
            BOOST_TEST(status_of(port, token, order) == "paid");
        } else {
            BOOST_TEST(done.status == 402u, done.body);
            BOOST_TEST(done.json().at("failureCode").as_string() == "authentication_failed");
            BOOST_TEST(status_of(port, token, order) == "pending_payment");
        }
        BOOST_TEST(call(port, "POST", path, token, R"({"result":"approve"})").status == 409u);
    }
}

BOOST_AUTO_TEST_CASE(coupons_apply_or_answer_422_naming_why) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto empty = call(port, "POST", "/api/v1/cart/coupon", token, R"({"code":"SAVE10"})");
    BOOST_TEST(empty.status == 422u, empty.body);
    const auto cheap = product(port, "10", 50);
    BOOST_TEST(add(port, token, cheap, "2").status == 201u);
    const auto unknown = call(port, "POST", "/api/v1/cart/coupon", token, R"({"code":"FREEBIE"})");
    BOOST_TEST(unknown.status == 422u);
    BOOST_TEST(message_of(unknown).find("FREEBIE") != std::string::npos, unknown.body);
    const auto low = call(port, "POST", "/api/v1/cart/coupon", token, R"({"code":"TAKE5"})");
    BOOST_TEST(low.status == 422u);
    BOOST_TEST(message_of(low).find("50") != std::string::npos, low.body);
    BOOST_TEST(add(port, token, cheap, "3").status == 201u);  // subtotal 50.00
    const auto take5 = call(port, "POST", "/api/v1/cart/coupon", token, R"({"code":"TAKE5"})");
    BOOST_TEST_REQUIRE(take5.status == 200u, take5.body);
    BOOST_TEST(
        take5.body.find(R"("subtotal":50,"discount":5,"total":45,"coupon":"TAKE5")") != std::string::npos,
        take5.body
    );
    const auto removed = call(port, "DELETE", "/api/v1/cart/coupon", token);
    BOOST_TEST(removed.status == 200u);
    BOOST_TEST(
        removed.body.find(R"("discount":0,"total":50,"coupon":null)") != std::string::npos, removed.body
    );
    const auto cleared = call(port, "DELETE", "/api/v1/cart", token);
    BOOST_TEST(cleared.status == 200u);
    BOOST_TEST(cleared.json().at("items").as_array().empty());
}

BOOST_AUTO_TEST_CASE(cancel_gives_stock_back_and_refunds_a_paid_order) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto id = product(port, "30", 4);
    BOOST_TEST(add(port, token, id, "3").status == 201u);
    const auto order = checkout(port, token).json().at("id").as_int64();
    BOOST_TEST(shows_stock(port, id, 1));
    BOOST_TEST(pay(port, token, order, "4242424242424242").status == 201u);
    const auto cancelled = call(port, "POST", order_path(order) + "/cancel", token);
    BOOST_TEST_REQUIRE(cancelled.status == 200u, cancelled.body);
    BOOST_TEST(cancelled.json().at("status").as_string() == "cancelled");
    BOOST_TEST(shows_stock(port, id, 4));
    const auto payments = call(port, "GET", order_path(order) + "/payments", token).json().as_array();
    BOOST_TEST(payments.at(0).at("status").as_string() == "refunded");
    const auto again = call(port, "POST", order_path(order) + "/cancel", token);
    BOOST_TEST(again.status == 409u);
    BOOST_TEST(message_of(again).find("allowed") != std::string::npos, again.body);
    BOOST_TEST(pay(port, token, order, "4242424242424242").status == 409u);
}

BOOST_AUTO_TEST_CASE(only_an_admin_ships_and_delivers) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto boss = admin(port);
    const auto order = pending_order(port, token);
    const auto path = order_path(order);
    BOOST_TEST(call(port, "PATCH", path, token, R"({"status":"shipped"})").status == 403u);
    const auto early = call(port, "PATCH", path, boss, R"({"status":"shipped"})");
    BOOST_TEST(early.status == 409u);
    BOOST_TEST(message_of(early).find("paid") != std::string::npos, early.body);
    BOOST_TEST(call(port, "PATCH", path, boss, R"({"status":"paid"})").status == 400u);
    BOOST_TEST(pay(port, token, order, "4242424242424242").status == 201u);
    BOOST_TEST(call(port, "PATCH", path, boss, R"({"status":"shipped"})").status == 200u);
    BOOST_TEST(call(port, "PATCH", path, boss, R"({"status":"delivered"})").status == 200u);
    BOOST_TEST(status_of(port, token, order) == "delivered");
    BOOST_TEST(call(port, "POST", path + "/cancel", token).status == 409u);
    // The admin sees every user's orders and may filter them.
    const auto all = call(port, "GET", "/api/v1/orders?status=delivered&limit=100", boss);
    BOOST_TEST(all.status == 200u);
    const auto all_doc = all.json();
    const auto& items = all_doc.as_array();
    BOOST_TEST(std::any_of(items.begin(), items.end(), [&](const json::value& o) {
        return o.at("id").as_int64() == order;
    }));
    BOOST_TEST(call(port, "GET", "/api/v1/orders?status=lost", boss).status == 400u);
    // Sorted, sliced and counted by the store: the two largest totals first, the count of every order.
    const auto top = call(port, "GET", "/api/v1/orders?sortBy=total&order=desc&limit=2", boss);
    BOOST_TEST_REQUIRE(top.status == 200u);
    const auto top_doc = top.json();
    BOOST_TEST_REQUIRE(top_doc.as_array().size() == 2u);
    BOOST_TEST(
        top_doc.as_array()[0].at("total").to_number<double>() >=
        top_doc.as_array()[1].at("total").to_number<double>()
    );
    BOOST_TEST(std::stoi(top.header("x-total-count")) >= 6);  // the seed's five and this case's
    BOOST_TEST(
        top.header("x-total-count") ==
        call(port, "GET", "/api/v1/orders?limit=1", boss).header("x-total-count")
    );
}

BOOST_AUTO_TEST_CASE(idempotency_key_replays_refuses_another_body_and_never_orders_twice) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto id = product(port, "12.5", 20);
    BOOST_TEST(add(port, token, id, "1").status == 201u);
    const std::vector<std::pair<std::string, std::string>> key{{"Idempotency-Key", "order-1"}};
    const auto first = checkout(port, token, address, key);
    BOOST_TEST_REQUIRE(first.status == 201u, first.body);
    BOOST_TEST(first.header("idempotent-replayed").empty());
    const auto replay = checkout(port, token, address, key);
    BOOST_TEST(replay.status == 201u);
    BOOST_TEST(replay.body == first.body);
    BOOST_TEST(replay.header("idempotent-replayed") == "true");
    const std::string other =
        R"({"shippingAddress":{"name":"Bob","line1":"2 Main St","city":"Springfield","postalCode":"12345","country":"US"}})";
    BOOST_TEST(checkout(port, token, other, key).status == 422u);
    BOOST_TEST(call(port, "GET", "/api/v1/orders", token).header("x-total-count") == "1");
    BOOST_TEST(shows_stock(port, id, 19));
    // Another user's same key is theirs alone.
    const auto stranger = customer(port);
    BOOST_TEST(checkout(port, stranger, address, key).status == 409u);  // their cart is empty

    // Payments: the same key pays once.
    const auto order = first.json().at("id").as_int64();
    const std::vector<std::pair<std::string, std::string>> pay_key{{"Idempotency-Key", "pay-1"}};
    const auto paid =
        call(port, "POST", order_path(order) + "/payments", token, card("4242424242424242"), pay_key);
    BOOST_TEST(paid.status == 201u);
    const auto again =
        call(port, "POST", order_path(order) + "/payments", token, card("4242424242424242"), pay_key);
    BOOST_TEST(again.status == 201u);
    BOOST_TEST(again.header("idempotent-replayed") == "true");
    BOOST_TEST(call(port, "GET", order_path(order) + "/payments", token).json().as_array().size() == 1u);
    BOOST_TEST(checkout(port, token, address, {{"Idempotency-Key", ""}}).status == 400u);

    // Racing requests with one key: one order at most; the others replay it or are told it still runs.
    BOOST_TEST(add(port, token, id, "1").status == 201u);
    std::vector<unsigned> statuses(8);
    std::vector<std::string> replayed(8);
    {
        std::vector<std::jthread> racers;
        for (std::size_t i = 0; i < statuses.size(); ++i) {
            racers.emplace_back([&, i] {
                const auto r = checkout(port, token, address, {{"Idempotency-Key", "race"}});
                statuses[i] = r.status;
                replayed[i] = r.header("idempotent-replayed");
            });
        }
    }
    int originals = 0;
    for (std::size_t i = 0; i < statuses.size(); ++i) {
        BOOST_TEST((statuses[i] == 201u || statuses[i] == 409u), statuses[i]);
        if (statuses[i] == 201u && replayed[i].empty()) {
            ++originals;
        }
    }
    BOOST_TEST(originals == 1);
    BOOST_TEST(call(port, "GET", "/api/v1/orders", token).header("x-total-count") == "2");
}

BOOST_AUTO_TEST_CASE(another_users_cart_order_and_payment_are_404_and_unchanged) {
    const auto port = shop_port();
    const auto owner = customer(port);
    const auto other = customer(port);
    const auto order = pending_order(port, owner);
    const auto started = pay(port, owner, order, "4000002500003155");
    const auto payment = started.json().at("id").as_int64();
    const auto id = product(port, "5", 5);
    BOOST_TEST(add(port, owner, id, "1").status == 201u);

    BOOST_TEST(call(port, "GET", "/api/v1/cart", other).json().at("items").as_array().empty());
    BOOST_TEST(call(port, "GET", order_path(order), other).status == 404u);
    BOOST_TEST(call(port, "GET", order_path(order) + "/payments", other).status == 404u);
    BOOST_TEST(call(port, "POST", order_path(order) + "/cancel", other).status == 404u);
    BOOST_TEST(pay(port, other, order, "4242424242424242").status == 404u);
    const auto three_ds = "/api/v1/payments/" + std::to_string(payment) + "/3ds";
    BOOST_TEST(call(port, "POST", three_ds, other, R"({"result":"approve"})").status == 404u);
    BOOST_TEST(call(port, "DELETE", "/api/v1/cart/items/" + std::to_string(id), other).status == 404u);
    BOOST_TEST(call(port, "GET", "/api/v1/orders", other).header("x-total-count") == "0");

    BOOST_TEST(status_of(port, owner, order) == "pending_payment");
    BOOST_TEST(call(port, "GET", "/api/v1/cart", owner).json().at("items").as_array().size() == 1u);
}

// 20 buyers race for the last 5 units: exactly 5 orders, stock 0, never below.
BOOST_AUTO_TEST_CASE(twenty_buyers_for_five_units_make_five_orders) {
    const auto port = shop_port();
    const auto id = product(port, "9.99", 5);
    std::vector<std::string> buyers(20);
    {
        std::vector<std::jthread> registering;
        for (auto& b : buyers) {
            registering.emplace_back([&] { b = try_customer(port); });
        }
    }
    for (auto& b : buyers) {
        if (b.empty()) {
            b = customer(port);  // the password worker was busy: once more, one at a time
        }
        BOOST_TEST_REQUIRE(add(port, b, id, "1").status == 201u);
    }
    std::vector<unsigned> statuses(buyers.size());
    {
        std::vector<std::jthread> racing;
        for (std::size_t i = 0; i < buyers.size(); ++i) {
            racing.emplace_back([&, i] { statuses[i] = checkout(port, buyers[i]).status; });
        }
    }
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 201u) == 5);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 409u) == 15);
    BOOST_TEST(shows_stock(port, id, 0));
}

BOOST_AUTO_TEST_CASE(bad_input_is_400_naming_the_field_and_changes_nothing) {
    const auto port = shop_port();
    const auto token = customer(port);
    const auto id = product(port, "3", 3);
    for (const std::string quantity : {"0", "100", "1.5", "\"2\"", "true", "-1"}) {
        const auto reply = add(port, token, id, quantity);
        BOOST_TEST(reply.status == 400u, quantity << " " << reply.body);
        BOOST_TEST(message_of(reply).find("quantity") != std::string::npos, reply.body);
    }
    const auto no_product =
        call(port, "POST", "/api/v1/cart/items", token, R"({"productId":"x","quantity":1})");
    BOOST_TEST(no_product.status == 400u);
    BOOST_TEST(message_of(no_product).find("productId") != std::string::npos, no_product.body);
    BOOST_TEST(add(port, token, 999999, "1").status == 404u);
    const auto too_many = add(port, token, id, "4");
    BOOST_TEST(too_many.status == 409u);
    BOOST_TEST(message_of(too_many).find(std::to_string(id)) != std::string::npos, too_many.body);
    BOOST_TEST(message_of(too_many).find("3 left") != std::string::npos, too_many.body);
    BOOST_TEST(call(port, "GET", "/api/v1/cart", token).json().at("items").as_array().empty());

    const auto big = product(port, "1", 500);
    BOOST_TEST(add(port, token, big, "60").status == 201u);
    const auto beyond = add(port, token, big, "40");  // 100 on the line
    BOOST_TEST(beyond.status == 400u);
    BOOST_TEST(message_of(beyond).find("quantity") != std::string::npos, beyond.body);
    const auto patch =
        call(port, "PATCH", "/api/v1/cart/items/" + std::to_string(big), token, R"({"quantity":0})");
    BOOST_TEST(patch.status == 200u);
    BOOST_TEST(patch.json().at("items").as_array().empty());
    BOOST_TEST(
        call(port, "PATCH", "/api/v1/cart/items/" + std::to_string(big), token, R"({"quantity":2})").status ==
        404u
    );

    BOOST_TEST(add(port, token, id, "1").status == 201u);
    const auto no_address = checkout(port, token, "{}");
    BOOST_TEST(no_address.status == 400u);
    BOOST_TEST(message_of(no_address).find("shippingAddress") != std::string::npos, no_address.body);
    const auto bad_postcode = checkout(
        port,
        token,
        R"({"shippingAddress":{"name":"A","line1":"1","city":"C","postalCode":"!!","country":"US"}})"
    );
    BOOST_TEST(bad_postcode.status == 400u);
    BOOST_TEST(
        message_of(bad_postcode).find("shippingAddress.postalCode") != std::string::npos, bad_postcode.body
    );
    BOOST_TEST(call(port, "GET", "/api/v1/cart", token).json().at("items").as_array().size() == 1u);
    BOOST_TEST(shows_stock(port, id, 3));
}

// Each sandbox has its own carts, orders and payments, with the same ids in every fresh one (after the five
// seeded orders), and the seed users' history.
BOOST_AUTO_TEST_CASE(each_sandbox_shops_on_its_own_data_with_deterministic_ids) {
    const auto port = shop_port();
    const auto stamp = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
    std::vector<std::int64_t> order_ids;
    for (const std::string& sandbox : {"shop-a-" + stamp, "shop-b-" + stamp}) {
        const std::string base = "/sandbox/" + sandbox;
        const auto login =
            post_json(port, base + "/api/v1/auth/login", R"({"email":"maria@mail.com","password":"12345"})");
        BOOST_TEST_REQUIRE(login.status == 201u, login.body);
        const std::string token(login.json().at("access_token").as_string());
        const auto history = call(port, "GET", base + "/api/v1/orders", token);
        BOOST_TEST(history.header("x-total-count") == "2");  // the seeded orders 4 and 5
        BOOST_TEST_REQUIRE(
            call(port, "POST", base + "/api/v1/cart/items", token, R"({"productId":1,"quantity":1})")
                .status == 201u
        );
        const auto order = call(port, "POST", base + "/api/v1/orders", token, address);
        BOOST_TEST_REQUIRE(order.status == 201u, order.body);
        order_ids.push_back(order.json().at("id").as_int64());
        const auto paid = call(
            port,
            "POST",
            base + "/api/v1/orders/" + std::to_string(order_ids.back()) + "/payments",
            token,
            card("4242424242424242")
        );
        BOOST_TEST(paid.status == 201u, paid.body);
        BOOST_TEST(call(port, "GET", base + "/api/v1/orders", token).header("x-total-count") == "3");
    }
    BOOST_TEST(order_ids.at(0) == 6);
    BOOST_TEST(order_ids.at(1) == 6);
    // The shared data saw none of it.
    const auto shared = call(port, "GET", "/api/v1/orders", login(port, "maria@mail.com", "12345"));
    BOOST_TEST(shared.header("x-total-count") == "2");
}

// A short --order-ttl: an unpaid order expires, gives its stock back and is told to its owner's change feed
// (and to no one else's); nothing of a card reaches the log.
BOOST_AUTO_TEST_CASE(unpaid_orders_expire_and_no_card_number_is_logged) {
    child_process server(shop_args("3", true));
    const auto port = server.wait_listening(20s);
    const auto token = customer(port);
    const auto feed_of = [&](const std::string& viewer) {
        auto s = std::make_unique<sse_client>(
            port,
            "/api/v1/events?types=order.expired",
            std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer " + viewer}}
        );
        BOOST_TEST_REQUIRE(s->read_head_until_following(), s->status << " " << s->head);
        return s;
    };
    auto own_feed = feed_of(token);
    auto strangers_feed = feed_of(customer(port));
    const auto id = product(port, "15", 2);
    BOOST_TEST(add(port, token, id, "2").status == 201u);
    const auto order = checkout(port, token).json().at("id").as_int64();
    BOOST_TEST(shows_stock(port, id, 0));
    // Card numbers in a good request, a declined one, a malformed body and a body of the wrong type.
    const auto keep = pending_order(port, token);
    BOOST_TEST(pay(port, token, keep, "4000000000000002").status == 402u);
    BOOST_TEST(
        call(port, "POST", order_path(keep) + "/payments", token, R"({"card":{"number":"4000000000009995",)")
            .status == 400u
    );
    BOOST_TEST(pay(port, token, keep, "4242424242424242").status == 201u);
    BOOST_TEST(
        call(port, "POST", "/api/v1/orders/x/payments?n=4000000000000127", token, card("4000000000000127"))
            .status == 400u
    );

    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (status_of(port, token, order) != "expired" && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100ms);
    }
    BOOST_TEST(status_of(port, token, order) == "expired");
    BOOST_TEST(shows_stock(port, id, 2));
    BOOST_TEST(pay(port, token, order, "4242424242424242").status == 409u);
    // One event, for the expired order only (the paid one never expires).
    const auto told = own_feed->next_event();
    BOOST_TEST_REQUIRE(told.has_value());
    BOOST_TEST(told->event == "order.expired");
    const auto expired = json::parse(told->data).at("data");
    BOOST_TEST(expired.at("id").as_int64() == order);
    BOOST_TEST(expired.at("status").as_string() == "expired");
    BOOST_TEST(!own_feed->next_event(300ms).has_value());
    BOOST_TEST(!strangers_feed->next_event(10ms).has_value());

    server.signal(SIGTERM);
    (void)server.wait_for_line("\"stopped\"", 10s);
    const std::string& log = server.output();
    BOOST_TEST(log.find("/api/v1/orders") != std::string::npos);  // the access log was on
    for (const char* number :
         {"4242424242424242", "4000000000000002", "4000000000009995", "4000000000000127", "\"123\""}) {
        BOOST_TEST(log.find(number) == std::string::npos, number);
    }
}

// Order and payment events go to the order's owner and to admins only (issue 43), after the commit.
BOOST_AUTO_TEST_CASE(order_and_payment_events_reach_only_the_owner_and_admins) {
    const auto port = shop_port();
    const auto buyer = customer(port);
    const auto stranger = customer(port);
    const auto stream = [&](const std::string& token) {
        auto s = std::make_unique<sse_client>(
            port,
            "/api/v1/events?types=order.*,payment.*",
            std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer " + token}}
        );
        BOOST_TEST_REQUIRE(s->read_head_until_following(), s->status << " " << s->head);
        return s;
    };
    auto own = stream(buyer);
    auto others = stream(stranger);
    auto staff = stream(admin(port));
    const auto order = pending_order(port, buyer);
    BOOST_TEST_REQUIRE(pay(port, buyer, order, "4242424242424242").status == 201u);
    for (auto* s : {own.get(), staff.get()}) {
        std::vector<std::string> types;
        for (int i = 0; i < 3; ++i) {
            const auto e = s->next_event();
            BOOST_TEST_REQUIRE(e.has_value());
            types.push_back(e->event);
            const auto data = boost::json::parse(e->data).at("data");
            BOOST_TEST(data.at(e->event.starts_with("order.") ? "id" : "orderId").as_int64() == order);
        }
        BOOST_TEST((types == std::vector<std::string>{"order.created", "payment.succeeded", "order.updated"})
        );
    }
    BOOST_TEST(!others->next_event(std::chrono::milliseconds(300)).has_value());
}

// order.updated after a payment carries the order as GET /orders/{id} shows it then: paid. `pay_it(order)`
// pays the buyer's order one way or another.
namespace {
void order_updated_is_the_paid_order(
    const std::function<void(std::uint16_t, const std::string&, std::int64_t)>& pay_it
) {
    const auto port = shop_port();
    const auto buyer = customer(port);
    sse_client stream(
        port,
        "/api/v1/events?types=order.updated",
        std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer " + buyer}}
    );
    BOOST_TEST_REQUIRE(stream.read_head_until_following(), stream.status << " " << stream.head);
    const auto order = pending_order(port, buyer);
    pay_it(port, buyer, order);
    const auto e = stream.next_event();
    BOOST_TEST_REQUIRE(e.has_value());
    const auto data = boost::json::parse(e->data).at("data");
    BOOST_TEST(data.at("status").as_string() == "paid");
    BOOST_TEST(data == call(port, "GET", order_path(order), buyer).json(), e->data);
}
}  // namespace

BOOST_AUTO_TEST_CASE(order_updated_after_a_payment_is_the_paid_order) {
    order_updated_is_the_paid_order([](std::uint16_t port, const std::string& buyer, std::int64_t order) {
        BOOST_TEST_REQUIRE(pay(port, buyer, order, "4242424242424242").status == 201u);
    });
}

BOOST_AUTO_TEST_CASE(order_updated_after_three_d_secure_is_the_paid_order) {
    order_updated_is_the_paid_order([](std::uint16_t port, const std::string& buyer, std::int64_t order) {
        const auto started = pay(port, buyer, order, "4000002500003155");
        BOOST_TEST_REQUIRE(started.status == 201u, started.body);
        const auto path = "/api/v1/payments/" + std::to_string(started.json().at("id").as_int64()) + "/3ds";
        BOOST_TEST_REQUIRE(call(port, "POST", path, buyer, R"({"result":"approve"})").status == 200u);
    });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace shop_e2e_file
