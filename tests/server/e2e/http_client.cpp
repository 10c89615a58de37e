// Blocking test client: Beast for well-formed requests, plain sockets with deadlines for raw bytes.

#include "http_client.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>

#include <sys/socket.h>
#include <sys/time.h>

namespace storefront::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return out;
}

void add_header(http_reply& reply, std::string_view name, std::string_view value) {
    auto& slot = reply.headers[lower(name)];
    slot = slot.empty() ? std::string(value) : slot + ", " + std::string(value);
}

// A parsed response as the tests see it.
http_reply reply_of(const http::response<http::string_body>& response) {
    http_reply reply;
    reply.status = response.result_int();
    for (const auto& h : response) {
        add_header(reply, h.name_string(), h.value());
    }
    reply.body = response.body();
    reply.connection_closed = !response.keep_alive();
    return reply;
}

void set_socket_timeouts(tcp::socket& socket, std::chrono::milliseconds wait) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(wait.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((wait.count() % 1000) * 1000);
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

}  // namespace

boost::json::value http_reply::json() const {
    return boost::json::parse(body);
}

std::string http_reply::header(const std::string& lower_name) const {
    const auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

http_reply send_request(std::uint16_t port, const http_request_spec& spec) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), port});
    set_socket_timeouts(socket, std::chrono::milliseconds(10000));

    http::request<http::string_body> request{http::string_to_verb(spec.method), spec.target, 11};
    request.set(http::field::host, "127.0.0.1");
    if (!spec.content_type.empty()) {
        request.set(http::field::content_type, spec.content_type);
    }
    for (const auto& [name, value] : spec.headers) {
        request.set(name, value);
    }
    request.body() = spec.body;
    if (!spec.body.empty() || spec.method == "POST" || spec.method == "PUT") {
        request.prepare_payload();
    }
    http::write(socket, request);

    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (spec.method == "HEAD") {
        parser.skip(true);
    }
    http::read(socket, buffer, parser);
    http_reply reply = reply_of(parser.get());
    boost::system::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    return reply;
}

http_reply get(std::uint16_t port, const std::string& target) {
    return send_request(port, {.method = "GET", .target = target});
}

http_reply post_json(std::uint16_t port, const std::string& target, const std::string& json_body) {
    return send_request(
        port, {.method = "POST", .target = target, .body = json_body, .content_type = "application/json"}
    );
}

raw_result raw_exchange_until_close(
    std::uint16_t port, std::string_view bytes, std::chrono::milliseconds wait
) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), port});
    set_socket_timeouts(socket, wait);
    const auto started = std::chrono::steady_clock::now();
    boost::system::error_code ec;
    asio::write(socket, asio::buffer(bytes.data(), bytes.size()), ec);
    raw_result result;
    std::array<char, 16384> chunk{};
    const auto deadline = started + wait;
    while (std::chrono::steady_clock::now() < deadline) {
        const ssize_t n = ::recv(socket.native_handle(), chunk.data(), chunk.size(), 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            result.closed_by_server = true;
            break;
        }
        if (n < 0) {
            continue;  // the receive timeout passed; the loop condition decides
        }
        result.bytes.append(chunk.data(), static_cast<std::size_t>(n));
    }
    result.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    return result;
}

struct keep_alive_connection::state {
    asio::io_context io;
    tcp::socket socket{io};
    beast::flat_buffer buffer;
};

keep_alive_connection::keep_alive_connection(std::uint16_t port) : state_(std::make_unique<state>()) {
    state_->socket.connect({asio::ip::make_address("127.0.0.1"), port});
    set_socket_timeouts(state_->socket, std::chrono::milliseconds(10000));
}

keep_alive_connection::~keep_alive_connection() = default;

http_reply keep_alive_connection::get(const std::string& target) {
    http::request<http::string_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    http::write(state_->socket, request);
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    http::read(state_->socket, state_->buffer, parser);
    return reply_of(parser.get());
}

bool keep_alive_connection::closed_by_server(std::chrono::milliseconds wait) {
    set_socket_timeouts(state_->socket, wait);
    std::array<char, 4096> chunk{};
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < deadline) {
        const ssize_t n = ::recv(state_->socket.native_handle(), chunk.data(), chunk.size(), 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            return true;
        }
    }
    return false;
}

std::string raw_exchange(std::uint16_t port, std::string_view bytes, std::chrono::milliseconds wait) {
    return raw_exchange_until_close(port, bytes, wait).bytes;
}

std::vector<http_reply> parse_responses(std::string_view bytes) {
    std::vector<http_reply> replies;
    while (!bytes.empty()) {
        http::response_parser<http::string_body> parser;
        parser.eager(true);
        boost::system::error_code ec;
        const std::size_t used = parser.put(asio::buffer(bytes.data(), bytes.size()), ec);
        if (ec || !parser.is_done()) {
            throw std::runtime_error(
                "incomplete or malformed HTTP response in: " + std::string(bytes.substr(0, 200))
            );
        }
        http_reply reply;
        reply.status = parser.get().result_int();
        for (const auto& h : parser.get()) {
            add_header(reply, h.name_string(), h.value());
        }
        reply.body = parser.get().body();
        reply.connection_closed = !parser.get().keep_alive();
        replies.push_back(std::move(reply));
        bytes.remove_prefix(used);
    }
    return replies;
}

}  // namespace storefront::test
