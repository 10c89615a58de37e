// End to end over a raw socket: the change feed as WebSocket on /api/v1/events (issue 43), on the server
// the SSE suite shares: on every backend, events as JSON text messages, {"subscribe": […]} and
// {"resume": "<id>"}, refused commands answered without closing, sandbox isolation; on the first one, a
// client too slow closed with 1008, and hostile clients: a bad handshake key or version, binary frames
// (1003), invalid UTF-8 (1007), an oversized message (1009), a frame length of 2^63 (closed, server
// unharmed).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http_client.hpp"

namespace json = boost::json;
using namespace storefront::test;
using namespace std::chrono_literals;

namespace storefront::test {
std::uint16_t events_server_port();  // test_events_e2e.cpp: the shared change feed server
// test_events_e2e.cpp: runs `body` against the change feed server of each backend of this run in turn.
void on_every_feed_backend(const std::function<void()>& body);
}  // namespace storefront::test

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace events_websocket_e2e_file {
namespace {

constexpr std::string_view good_key = "dGhlIHNhbXBsZSBub25jZQ==";  // RFC 6455's sample, 16 bytes

// A WebSocket client over a plain socket: handshake text as given, frames built by hand (masked, as a client
// must), every read with a deadline.
class raw_ws {
  public:
    // `receive_buffer` (when non-zero): SO_RCVBUF, so that a client that stops reading fills up quickly.
    explicit raw_ws(std::uint16_t port, int receive_buffer = 0) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        if (receive_buffer > 0) {
            ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
        }
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            throw std::runtime_error("connect failed");
        }
    }
    ~raw_ws() { ::close(fd_); }
    raw_ws(const raw_ws&) = delete;
    raw_ws& operator=(const raw_ws&) = delete;

    // Sends the upgrade request and reads the response head; answers its status.
    unsigned handshake(
        const std::string& target,
        std::string_view key = good_key,
        std::string_view version = "13",
        const std::string& extra = {}
    ) {
        send_all(
            "GET " + target +
            " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: " + std::string(key) + "\r\nSec-WebSocket-Version: " + std::string(version) +
            "\r\n" + extra + "\r\n"
        );
        const auto deadline = std::chrono::steady_clock::now() + 3s;
        std::size_t end = std::string::npos;
        while ((end = in_.find("\r\n\r\n")) == std::string::npos) {
            if (!read_more(deadline)) {
                throw std::runtime_error("no handshake answer: " + in_);
            }
        }
        head = in_.substr(0, end + 2);
        in_.erase(0, end + 4);
        return static_cast<unsigned>(std::stoi(head.substr(9, 3)));
    }

    // One masked frame with FIN set: `opcode` (1 text, 2 binary, 8 close, 9 ping) and `payload`.
    void send_frame(unsigned opcode, std::string_view payload) {
        std::string frame;
        frame.push_back(static_cast<char>(0x80 | opcode));
        const std::size_t n = payload.size();
        if (n < 126) {
            frame.push_back(static_cast<char>(0x80 | n));
        } else if (n < 65536) {
            frame.push_back(static_cast<char>(0x80 | 126));
            frame.push_back(static_cast<char>(n >> 8));
            frame.push_back(static_cast<char>(n & 0xFF));
        } else {
            frame.push_back(static_cast<char>(0x80 | 127));
            for (int i = 7; i >= 0; --i) {
                frame.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
            }
        }
        const char mask[4] = {0x12, 0x34, 0x56, 0x78};
        frame.append(mask, 4);
        for (std::size_t i = 0; i < n; ++i) {
            frame.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
        }
        send_all(frame);
    }
    void send_text(std::string_view text) { send_frame(1, text); }
    void send_all(std::string_view bytes) {
        std::size_t sent = 0;
        while (sent < bytes.size()) {
            const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) {
                return;  // the server may have closed already: what it sent is still read
            }
            sent += static_cast<std::size_t>(n);
        }
    }

    struct frame {
        unsigned opcode = 0;
        std::string payload;
        // A close frame's code (0: none).
        [[nodiscard]] unsigned close_code() const {
            return payload.size() >= 2 ? (static_cast<unsigned char>(payload[0]) << 8) |
                                             static_cast<unsigned char>(payload[1])
                                       : 0;
        }
    };
    // The next frame from the server (pings answered with pongs and skipped), or nullopt at the end or
    // after `wait`.
    std::optional<frame> next(std::chrono::milliseconds wait = 3000ms) {
        const auto deadline = std::chrono::steady_clock::now() + wait;
        for (;;) {
            auto f = parse_frame();
            while (!f) {
                if (!read_more(deadline)) {
                    return std::nullopt;
                }
                f = parse_frame();
            }
            if (f->opcode == 9) {
                send_frame(10, f->payload);
                continue;
            }
            return f;
        }
    }
    // The next text message as JSON.
    json::object next_json(std::chrono::milliseconds wait = 3000ms) {
        const auto f = next(wait);
        BOOST_TEST_REQUIRE(f.has_value(), "no message arrived");
        BOOST_TEST_REQUIRE(f->opcode == 1u, "not a text frame: opcode " << f->opcode << " " << f->payload);
        return json::parse(f->payload).as_object();
    }
    // The close code the server sends next (skipping other frames), 0 if it closed without one.
    unsigned close_code(std::chrono::milliseconds wait = 3000ms) {
        while (auto f = next(wait)) {
            if (f->opcode == 8) {
                return f->close_code();
            }
        }
        return 0;
    }

    std::string head;

  private:
    std::optional<frame> parse_frame() {
        if (in_.size() < 2) {
            return std::nullopt;
        }
        const auto b1 = static_cast<unsigned char>(in_[1]);
        std::size_t length = b1 & 0x7F;
        std::size_t at = 2;
        if (length == 126) {
            if (in_.size() < 4) {
                return std::nullopt;
            }
            length = (static_cast<unsigned char>(in_[2]) << 8) | static_cast<unsigned char>(in_[3]);
            at = 4;
        } else if (length == 127) {
            if (in_.size() < 10) {
                return std::nullopt;
            }
            length = 0;
            for (int i = 2; i < 10; ++i) {
                length = (length << 8) | static_cast<unsigned char>(in_[i]);
            }
            at = 10;
        }
        if (in_.size() < at + length) {
            return std::nullopt;
        }
        frame f{static_cast<unsigned>(static_cast<unsigned char>(in_[0]) & 0x0F), in_.substr(at, length)};
        in_.erase(0, at + length);
        return f;
    }
    bool read_more(std::chrono::steady_clock::time_point deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()
        );
        if (left.count() <= 0) {
            return false;
        }
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
            return false;
        }
        char chunk[16384];
        const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) {
            return false;
        }
        in_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }

    int fd_ = -1;
    std::string in_;
};

std::uint16_t port() {
    return events_server_port();
}

std::string product_json(const std::string& title) {
    return R"({"title":")" + title +
           R"(","price":5,"description":"d","categoryId":1,"images":["https://placehold.co/600x400"]})";
}

json::value create(const std::string& base, const std::string& what, const std::string& body) {
    const auto reply = post_json(port(), base + "/api/v1/" + what, body);
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return reply.json();
}

// A feed connection whose handshake succeeded.
std::unique_ptr<raw_ws> feed(const std::string& target = "/api/v1/events", int receive_buffer = 0) {
    auto ws = std::make_unique<raw_ws>(port(), receive_buffer);
    BOOST_TEST_REQUIRE(ws->handshake(target) == 101u, ws->head);
    const auto ready = ws->next_json();  // subscribed from here on
    BOOST_TEST_REQUIRE(ready.at("type").as_string() == "ready");
    return ws;
}

// Sends a command the feed refuses and waits for the refusal: every message before it has been handled.
void sync(raw_ws& ws) {
    ws.send_text(R"({"ping":true})");
    for (;;) {
        const auto m = ws.next_json();
        if (m.at("type").as_string() == "error") {
            return;
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(change_feed_websocket)

BOOST_AUTO_TEST_CASE(events_arrive_as_json_text_messages_and_commands_change_the_stream) {
    on_every_feed_backend([] {
        auto ws = feed();
        BOOST_TEST(ws->head.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != std::string::npos);
        const auto product = create("", "products", product_json("Socket Lamp"));
        auto event = ws->next_json();
        BOOST_TEST(event.at("type").as_string() == "product.created");
        BOOST_TEST(event.at("data") == product);
        const std::string first_id(event.at("id").as_string());

        ws->send_text(R"({"subscribe":["category.*"]})");
        sync(*ws);
        (void)create("", "products", product_json("Not For This Socket"));
        const auto category =
            create("", "categories", R"({"name":"Socket Things","image":"https://x.com/a.png"})");
        event = ws->next_json();
        BOOST_TEST(event.at("type").as_string() == "category.created");
        BOOST_TEST(event.at("data") == category);

        ws->send_text(R"({"resume":")" + first_id + R"("})");  // with the category filter still on
        event = ws->next_json();
        BOOST_TEST(event.at("type").as_string() == "category.created");
        BOOST_TEST(std::stoull(std::string(event.at("id").as_string())) > std::stoull(first_id));

        ws->send_text(R"({"subscribe":["product.exploded"]})");
        event = ws->next_json();
        BOOST_TEST(event.at("type").as_string() == "error");
        BOOST_TEST(std::string(event.at("message").as_string()).find("product.*") != std::string::npos);
        ws->send_text("not json");
        BOOST_TEST(ws->next_json().at("type").as_string() == "error");
        ws->send_frame(9, "are you there");  // a ping gets its pong
        const auto pong = ws->next();
        BOOST_TEST_REQUIRE(pong.has_value());
        BOOST_TEST(pong->opcode == 10u);
        BOOST_TEST(pong->payload == "are you there");
        ws->send_frame(8, std::string("\x03\xe8", 2));  // a normal close is answered with one
        BOOST_TEST(ws->close_code() == 1000u);
    });
}

BOOST_AUTO_TEST_CASE(a_sandbox_socket_hears_only_its_sandbox) {
    on_every_feed_backend([] {
        auto shared = feed();
        auto boxed = feed("/sandbox/ws-box/api/v1/events");
        (void)create("/sandbox/ws-box", "products", product_json("Boxed Socket"));
        auto event = boxed->next_json();
        BOOST_TEST(event.at("data").at("title").as_string() == "Boxed Socket");
        BOOST_TEST(event.at("id").as_string() == "1");
        (void)create("", "products", product_json("Shared Socket"));
        BOOST_TEST(shared->next_json().at("data").at("title").as_string() == "Shared Socket");
        BOOST_TEST(!boxed->next(300ms).has_value());
    });
}

BOOST_AUTO_TEST_CASE(a_socket_that_stops_reading_is_closed_with_1008_while_another_keeps_up) {
    auto slow = feed("/sandbox/ws-slow/api/v1/events", 4096);
    auto quick = feed("/sandbox/ws-slow/api/v1/events");
    const std::string description(4000, 'd');
    constexpr int writes = 120;
    int received = 0;
    for (int i = 0; i < writes; ++i) {
        (void)create(
            "/sandbox/ws-slow",
            "products",
            R"({"title":"Slow Socket )" + std::to_string(i) + R"(","price":5,"description":")" + description +
                R"(","categoryId":1,"images":["https://placehold.co/600x400"]})"
        );
        if (quick->next_json().at("type").as_string() == "product.created") {
            ++received;
        }
    }
    BOOST_TEST(received == writes);
    BOOST_TEST(slow->close_code(10s) == 1008u);
}

BOOST_AUTO_TEST_CASE(a_bad_handshake_is_refused_and_the_version_named) {
    raw_ws bad_version(port());
    BOOST_TEST(bad_version.handshake("/api/v1/events", good_key, "8") == 426u);
    BOOST_TEST(bad_version.head.find("Sec-WebSocket-Version: 13") != std::string::npos);
    raw_ws bad_key(port());
    BOOST_TEST(bad_key.handshake("/api/v1/events", "not-a-key") == 400u);
    raw_ws short_key(port());
    BOOST_TEST(short_key.handshake("/api/v1/events", "c2hvcnQ=") == 400u);  // 5 bytes, not 16
    raw_ws bad_types(port());
    BOOST_TEST(bad_types.handshake("/api/v1/events?types=nope") == 400u);
}

// With --cors-origins set, a page of another origin cannot open a user's stream (the handshake carries
// the login cookie and CORS does not guard WebSocket); allowed origins and non-browser clients can.
BOOST_AUTO_TEST_CASE(the_handshake_origin_must_be_allowed_when_cors_origins_is_set) {
    raw_ws foreign(port());
    BOOST_TEST(
        foreign.handshake("/api/v1/events", good_key, "13", "Origin: https://evil.example\r\n") == 403u
    );
    raw_ws allowed(port());
    BOOST_TEST(
        allowed.handshake("/api/v1/events", good_key, "13", "Origin: http://localhost:5173\r\n") == 101u
    );
    raw_ws own(port());
    BOOST_TEST(own.handshake("/api/v1/events", good_key, "13", "Origin: http://127.0.0.1\r\n") == 101u);
    raw_ws no_origin(port());
    BOOST_TEST(no_origin.handshake("/api/v1/events") == 101u);
}

BOOST_AUTO_TEST_CASE(bad_frames_close_with_the_matching_code) {
    {
        auto ws = feed();
        ws->send_frame(2, "binary");
        BOOST_TEST(ws->close_code() == 1003u);
    }
    {
        auto ws = feed();
        ws->send_text("\xc3\x28 not UTF-8");
        BOOST_TEST(ws->close_code() == 1007u);
    }
    {
        auto ws = feed();
        ws->send_text(std::string(5000, 'x'));
        BOOST_TEST(ws->close_code() == 1009u);
    }
    {
        auto ws = feed();
        // A text frame header claiming 2^63 bytes (the most significant bit must be 0): a protocol error.
        std::string header = "\x81\xff";
        header.push_back('\x80');
        header.append(7, '\0');
        header.append("\x12\x34\x56\x78", 4);
        ws->send_all(header);
        const unsigned code = ws->close_code();
        BOOST_TEST((code == 1002u || code == 1009u), "close code " << code);
    }
    BOOST_TEST(get(port(), "/api/v1/products/1").status == 200u);  // the server is unharmed
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace events_websocket_e2e_file
