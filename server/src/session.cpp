// One HTTP/1.1 connection as a coroutine: read a request (with limits and timeouts), dispatch, write the
// response; keep-alive and pipelining fall out of the loop because the buffer keeps any bytes read ahead.

#include <array>
#include <chrono>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include "server/error_responses.hpp"
#include "server/log.hpp"
#include "server/router.hpp"
#include "server/wire.hpp"
#include "worker.hpp"

namespace storefront::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A response for a request that could not be read, or nothing when the peer simply went away.
std::optional<response> read_failure_response(const boost::system::error_code& ec) {
    if (ec == http::error::end_of_stream || ec == http::error::partial_message ||
        ec == beast::error::timeout || ec == asio::error::operation_aborted ||
        ec == asio::error::connection_reset || ec == asio::error::eof || ec == asio::error::broken_pipe ||
        ec == asio::error::not_connected) {
        return std::nullopt;
    }
    if (ec == http::error::header_limit) {
        return http_error(http::status::request_header_fields_too_large, "Request header fields too large");
    }
    if (ec == http::error::body_limit) {
        return http_error(http::status::payload_too_large, "Request body too large");
    }
    if (ec.category() == http::make_error_code(http::error::bad_method).category()) {
        return http_error(http::status::bad_request, "Malformed HTTP request");
    }
    return std::nullopt;
}

// After refusing a request whose body was not read, closing at once would make the kernel send RST and
// the client could lose our error response; so half-close and drain briefly first, as nginx does.
asio::awaitable<void> lingering_close(beast::tcp_stream& stream) {
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    std::array<char, 4096> sink{};
    std::size_t drained = 0;
    stream.expires_after(std::chrono::seconds(1));
    while (drained < 1024 * 1024) {
        auto [ec, n] = co_await stream.async_read_some(asio::buffer(sink), use_tuple);
        if (ec) {
            break;
        }
        drained += n;
    }
}

struct slot_guard {
    worker& owner;
    std::list<connection_slot>::iterator slot;
    ~slot_guard() { owner.connections.erase(slot); }
};

}  // namespace

asio::awaitable<void> run_session(
    tcp::socket socket, worker& owner, app_services& app, const server_config& config
) {
    beast::tcp_stream stream(std::move(socket));
    const slot_guard guard{owner, owner.connections.insert(owner.connections.end(), {&stream, false})};
    beast::flat_buffer buffer;
    std::string head;

    while (!owner.stopping) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(config.limits.header_limit));
        parser.body_limit(config.limits.body_limit);
        stream.expires_after(config.limits.keepalive_timeout);
        auto [read_ec, read_bytes] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (read_ec) {
            if (auto failure = read_failure_response(read_ec)) {
                write_head(head, *failure, {.keep_alive = false});
                stream.expires_after(config.limits.write_timeout);
                const std::array<asio::const_buffer, 2> buffers{
                    asio::buffer(head), asio::buffer(failure->payload())};
                co_await asio::async_write(stream, buffers, use_tuple);
                if (config.access_log) {
                    log_request("-", "-", static_cast<unsigned>(failure->status), {});
                }
                co_await lingering_close(stream);
            }
            break;
        }

        guard.slot->busy = true;
        const auto started = std::chrono::steady_clock::now();
        const http_request& request = parser.get();
        response answer = co_await dispatch(request, app);
        const bool keep_alive = request.keep_alive() && !answer.close_connection && !owner.stopping;
        write_head(head, answer, {.keep_alive = keep_alive, .http10 = request.version() == 10});
        const bool head_only = request.method() == http::verb::head;
        stream.expires_after(config.limits.write_timeout);
        const std::array<asio::const_buffer, 2> buffers{
            asio::buffer(head), head_only ? asio::const_buffer() : asio::buffer(answer.payload())};
        auto [write_ec, written] = co_await asio::async_write(stream, buffers, use_tuple);
        guard.slot->busy = false;
        if (config.access_log) {
            const auto target = request.target();
            log_request(
                request.method_string(),
                target.substr(0, target.find('?')),
                static_cast<unsigned>(answer.status),
                std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - started
                )
            );
        }
        if (write_ec || !keep_alive) {
            break;
        }
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream.socket().close(ignored);
}

}  // namespace storefront::server
