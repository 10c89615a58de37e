// End to end over raw sockets: routing errors, CORS preflight, HEAD, keep-alive, pipelining and limits.

#include <atomic>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront::test;

BOOST_AUTO_TEST_SUITE(http_protocol)

BOOST_AUTO_TEST_CASE(unknown_path_is_404_and_wrong_method_is_405) {
    const auto port = shared_server().port();
    const auto missing = get(port, "/api/v1/nothing");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(
        missing.body == R"({"message":"Cannot GET /api/v1/nothing","error":"Not Found","statusCode":404})"
    );

    const auto wrong = send_request(port, {.method = "DELETE", .target = "/api/v1/locations"});
    BOOST_TEST(wrong.status == 405u);
    BOOST_TEST(wrong.header("allow") == "GET, HEAD, OPTIONS");

    const auto patch = send_request(port, {.method = "PATCH", .target = "/api/v1/products/1"});
    BOOST_TEST(patch.status == 405u);
    BOOST_TEST(patch.header("allow") == "DELETE, GET, HEAD, PUT, OPTIONS");
    BOOST_TEST(wrong.json().at("statusCode").as_int64() == 405);

    const auto get_on_post = get(port, "/api/v1/auth/login");
    BOOST_TEST(get_on_post.status == 405u);
    BOOST_TEST(get_on_post.header("allow") == "POST, OPTIONS");
}

BOOST_AUTO_TEST_CASE(trailing_slash_is_tolerated) {
    const auto reply = get(shared_server().port(), "/api/v1/categories/");
    BOOST_TEST(reply.status == 200u);
    BOOST_TEST(reply.json().as_array().size() == 5u);
}

BOOST_AUTO_TEST_CASE(options_preflight_is_204_with_cors_headers) {
    const auto reply =
        send_request(shared_server().port(), {.method = "OPTIONS", .target = "/api/v1/auth/login"});
    BOOST_TEST(reply.status == 204u);
    BOOST_TEST(reply.header("access-control-allow-origin") == "*");
    BOOST_TEST(reply.header("access-control-allow-methods") == "POST, OPTIONS");
    BOOST_TEST(
        reply.header("access-control-allow-headers") ==
        "Content-Type, Authorization, api_key, If-None-Match, X-Sandbox, Idempotency-Key, Last-Event-ID"
    );
    BOOST_TEST(reply.body.empty());
}

BOOST_AUTO_TEST_CASE(head_has_get_headers_and_no_body) {
    const auto port = shared_server().port();
    const auto full = get(port, "/api/v1/products");
    const auto raw = raw_exchange(
        port,
        "HEAD /api/v1/products HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        std::chrono::milliseconds(2000)
    );
    BOOST_TEST(raw.rfind("HTTP/1.1 200 OK\r\n", 0) == 0u);
    BOOST_TEST(raw.find("Content-Length: " + std::to_string(full.body.size()) + "\r\n") != std::string::npos);
    BOOST_TEST(raw.substr(raw.size() - 4) == "\r\n\r\n");  // nothing after the head
}

BOOST_AUTO_TEST_CASE(pipelined_requests_are_answered_in_order_on_one_connection) {
    const std::string requests =
        "GET /api/v1/products?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/users?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    const auto replies = parse_responses(raw_exchange(shared_server().port(), requests));
    BOOST_TEST_REQUIRE(replies.size() == 4u);
    BOOST_TEST(replies[0].status == 200u);
    BOOST_TEST(replies[0].json().as_array().size() == 1u);
    BOOST_TEST(replies[1].json().as_array().size() == 5u);
    BOOST_TEST(replies[2].status == 404u);
    BOOST_TEST(!replies[2].connection_closed);
    BOOST_TEST(replies[3].json().as_array().at(0).at("email").as_string() == "john@mail.com");
    BOOST_TEST(replies[3].connection_closed);
}

BOOST_AUTO_TEST_CASE(large_responses_to_a_late_reader_arrive_whole) {
    // ~2.8 MB of responses while the client does not read: the server's first non-blocking write fills the
    // socket buffer and the rest must follow asynchronously, in order and complete.
    std::string requests;
    for (int i = 0; i < 40; ++i) {
        requests += "GET /api/v1/products?limit=100 HTTP/1.1\r\nHost: x\r\n";
        requests += i == 39 ? "Connection: close\r\n\r\n" : "\r\n";
    }
    const auto expected = get(shared_server().port(), "/api/v1/products?limit=100").body;
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), shared_server().port()});
    boost::asio::write(socket, boost::asio::buffer(requests));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::string received;
    boost::system::error_code ec;
    boost::asio::read(socket, boost::asio::dynamic_buffer(received), ec);  // until the server closes
    BOOST_TEST((ec == boost::asio::error::eof));
    const auto replies = parse_responses(received);
    BOOST_TEST_REQUIRE(replies.size() == 40u);
    for (const auto& reply : replies) {
        BOOST_TEST(reply.status == 200u);
        BOOST_TEST(reply.body == expected);
    }
}

BOOST_AUTO_TEST_CASE(http10_closes_unless_keep_alive_asked) {
    const auto port = shared_server().port();
    const auto replies = parse_responses(raw_exchange(port, "GET /api/v1/categories HTTP/1.0\r\n\r\n"));
    BOOST_TEST_REQUIRE(replies.size() == 1u);
    BOOST_TEST(replies[0].status == 200u);
    BOOST_TEST(replies[0].connection_closed);
}

BOOST_AUTO_TEST_CASE(malformed_and_oversized_requests_get_json_errors_and_close) {
    const auto port = shared_server().port();
    struct row {
        std::string name;
        std::string bytes;
        unsigned status;
    };
    const std::vector<row> table{
        {"garbage request line", "NOT HTTP AT ALL\r\n\r\n", 400},
        {"bad header", "GET /api/v1/products HTTP/1.1\r\nHost x\r\n\r\n", 400},
        {"huge header",
         "GET /api/v1/products HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n",
         431},
        {"huge body",
         "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Content-Length: 10000000\r\n\r\n{",
         413},
        {"bad target", "GET /api/v1/products?x=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400},
    };
    for (const auto& r : table) {
        BOOST_TEST_CONTEXT(r.name) {
            const auto replies = parse_responses(raw_exchange(port, r.bytes));
            BOOST_TEST_REQUIRE(replies.size() == 1u);
            BOOST_TEST(replies[0].status == r.status);
            BOOST_TEST(replies[0].json().at("statusCode").as_int64() == static_cast<std::int64_t>(r.status));
            BOOST_TEST(replies[0].connection_closed);
        }
    }
    BOOST_TEST(get(port, "/api/v1/categories").status == 200u);  // the server is still there
}

BOOST_AUTO_TEST_CASE(many_parallel_clients_are_all_served) {
    const auto port = shared_server().port();
    std::vector<std::thread> clients;
    std::atomic<int> ok{0};
    for (int t = 0; t < 8; ++t) {
        clients.emplace_back([&] {
            for (int i = 0; i < 25; ++i) {
                if (get(port, "/api/v1/products?offset=" + std::to_string(i) + "&limit=3").status == 200u) {
                    ++ok;
                }
            }
        });
    }
    for (auto& c : clients) {
        c.join();
    }
    BOOST_TEST(ok.load() == 200);
}

BOOST_AUTO_TEST_SUITE_END()
