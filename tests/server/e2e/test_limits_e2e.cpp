// Slow clients and resource limits against dedicated servers with short timeouts: slow headers and bodies
// are cut off while others are served, keep-alive connections end after their request quota, and beyond
// the connection limit new clients wait instead of costing memory.

#include <atomic>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;
using namespace storefront::test;
namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

server::server_config short_timeouts() {
    auto config = test_config();
    config.threads = 1;
    config.limits.header_timeout = std::chrono::seconds(1);
    config.limits.body_timeout = std::chrono::seconds(1);
    config.limits.min_body_rate = 1024 * 1024;  // so the body deadline is ~1 s for small bodies
    config.limits.keepalive_timeout = std::chrono::seconds(2);
    return config;
}

// A client socket that sends what it is told and reports what came back within a bounded wait.
class client {
  public:
    explicit client(std::uint16_t port) : socket_(io_) {
        socket_.connect({asio::ip::make_address("127.0.0.1"), port});
        timeval tv{0, 100 * 1000};
        ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    void send(std::string_view bytes) { asio::write(socket_, asio::buffer(bytes.data(), bytes.size())); }

    // Reads for up to `wait`; stops early at EOF. Returns what arrived and whether the server closed.
    std::pair<std::string, bool> receive(std::chrono::milliseconds wait) {
        std::string got;
        std::array<char, 8192> chunk{};
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (std::chrono::steady_clock::now() < deadline) {
            const ssize_t n = ::recv(socket_.native_handle(), chunk.data(), chunk.size(), 0);
            if (n == 0 || (n < 0 && errno == ECONNRESET)) {
                return {got, true};
            }
            if (n > 0) {
                got.append(chunk.data(), static_cast<std::size_t>(n));
            }
        }
        return {got, false};
    }
    void close() { socket_.close(); }

  private:
    asio::io_context io_;
    tcp::socket socket_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(slow_clients_and_limits)

BOOST_AUTO_TEST_CASE(slow_header_is_cut_off_after_the_header_timeout_while_others_are_served) {
    running_server server(short_timeouts());
    client slow(server.port());
    slow.send("GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n");  // and never the blank line
    // Meanwhile a normal client is served at once, several times.
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(get(server.port(), "/api/v1/categories").status == 200u);
    }
    const auto started = std::chrono::steady_clock::now();
    const auto [bytes, closed] = slow.receive(std::chrono::milliseconds(3000));
    const auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    BOOST_TEST(closed);  // disconnected without an answer, as nginx does
    BOOST_TEST(bytes.empty());
    BOOST_TEST(waited.count() < 2500);
    BOOST_TEST(get(server.port(), "/api/v1/categories").status == 200u);
}

BOOST_AUTO_TEST_CASE(silent_and_idle_connections_are_closed) {
    running_server server(short_timeouts());
    client silent(server.port());  // connects and says nothing: closed after the header timeout
    const auto [silent_bytes, silent_closed] = silent.receive(std::chrono::milliseconds(3000));
    BOOST_TEST(silent_closed);
    BOOST_TEST(silent_bytes.empty());

    client idle(server.port());  // one request, then idle: closed after the keep-alive timeout
    idle.send("GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n\r\n");
    const auto [first, closed_early] = idle.receive(std::chrono::milliseconds(1000));
    BOOST_TEST(!closed_early);
    BOOST_TEST(parse_responses(first).size() == 1u);
    const auto [rest, closed_later] = idle.receive(std::chrono::milliseconds(3000));
    BOOST_TEST(closed_later);
    BOOST_TEST(rest.empty());
}

BOOST_AUTO_TEST_CASE(slow_body_is_cut_off_after_its_deadline) {
    running_server server(short_timeouts());
    client slow(server.port());
    slow.send(
        "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n{\"email\":"
    );
    const auto started = std::chrono::steady_clock::now();
    const auto [bytes, closed] = slow.receive(std::chrono::milliseconds(4000));
    const auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    BOOST_TEST(closed);
    BOOST_TEST(bytes.empty());
    BOOST_TEST(waited.count() < 3000);
    BOOST_TEST(get(server.port(), "/api/v1/categories").status == 200u);
}

BOOST_AUTO_TEST_CASE(connection_ends_after_its_request_quota) {
    auto config = short_timeouts();
    config.limits.max_requests_per_connection = 3;
    running_server server(config);
    std::string four;
    for (int i = 0; i < 4; ++i) {
        four += "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n\r\n";
    }
    const auto result = raw_exchange_until_close(server.port(), four);
    BOOST_TEST(result.closed_by_server);
    const auto replies = parse_responses(result.bytes);
    BOOST_TEST_REQUIRE(replies.size() == 3u);
    BOOST_TEST(!replies[1].connection_closed);
    BOOST_TEST(replies[2].connection_closed);
}

BOOST_AUTO_TEST_CASE(beyond_the_connection_limit_clients_wait_for_room) {
    auto config = short_timeouts();
    config.limits.max_connections = 2;
    config.limits.keepalive_timeout = std::chrono::seconds(10);
    running_server server(config);
    const std::string request = "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n\r\n";
    client first(server.port());
    client second(server.port());
    first.send(request);
    second.send(request);
    BOOST_TEST(parse_responses(first.receive(std::chrono::milliseconds(500)).first).size() == 1u);
    BOOST_TEST(parse_responses(second.receive(std::chrono::milliseconds(500)).first).size() == 1u);

    client third(server.port());  // the kernel completes the handshake; we do not accept it yet
    third.send(request);
    BOOST_TEST(third.receive(std::chrono::milliseconds(500)).first.empty());
    first.close();  // room for one more
    const auto [bytes, closed] = third.receive(std::chrono::milliseconds(2000));
    BOOST_TEST(parse_responses(bytes).size() == 1u);
}

BOOST_AUTO_TEST_CASE(login_flood_is_bounded) {
    auto config = test_config();
    config.limits.hash_threads = 1;
    config.limits.hash_queue = 2;
    running_server server(config);
    std::atomic<int> created{0};
    std::atomic<int> busy{0};
    std::atomic<int> other{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 12; ++i) {
        clients.emplace_back([&] {
            const auto reply = post_json(
                server.port(), "/api/v1/auth/login", R"({"email":"john@mail.com","password":"changeme"})"
            );
            if (reply.status == 201u) {
                ++created;
            } else if (reply.status == 503u && reply.header("retry-after") == "1") {
                ++busy;
            } else {
                ++other;
            }
        });
    }
    for (auto& c : clients) {
        c.join();
    }
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(created.load() >= 1);
    BOOST_TEST(busy.load() >= 1);  // 12 at once cannot all queue behind one verifier with room for 2
    BOOST_TEST(created.load() + busy.load() == 12);
}

BOOST_AUTO_TEST_SUITE_END()
