// The bytes of one HTTP/1.1 connection (connection_io.hpp). The buffer keeps any bytes read ahead, so
// pipelined requests are read from it first.

#include "connection_io.hpp"

#include <array>
#include <chrono>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffer_traits.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>

#include "request_accounting.hpp"
#include "server/codec/error_style.hpp"
#include "server/routing/error_responses.hpp"
#include "use_tuple.hpp"

namespace storefront::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {

constexpr std::size_t read_chunk = 4096;

// With epoll, an answer's first write is a synchronous send on a non-blocking socket: no timer, no
// asynchronous operation. With io_uring (CMake STOREFRONT_IO_URING) a send is a submission the kernel takes
// with the next wait, and a receive waits in the kernel instead of failing first with EAGAIN; a non-blocking
// socket would make Asio poll before every receive, so there every write is asynchronous.
#if defined(BOOST_ASIO_HAS_IO_URING_AS_DEFAULT)
constexpr bool synchronous_first_write = false;
#else
constexpr bool synchronous_first_write = true;
#endif
constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

std::string_view view_of(const beast::flat_buffer& buffer) {
    const auto data = buffer.data();
    return {static_cast<const char*>(data.data()), data.size()};
}

// RFC 9112 §2.2: empty lines before a request line are ignored (some clients add CRLF after a body).
void skip_leading_empty_lines(beast::flat_buffer& buffer) {
    std::string_view bytes = view_of(buffer);
    std::size_t skip = 0;
    while (bytes.substr(skip, 2) == "\r\n") {
        skip += 2;
    }
    buffer.consume(skip);
}

bool peer_went_away(const boost::system::error_code& ec) {
    return ec == http::error::end_of_stream || ec == http::error::partial_message || ec == asio::error::eof ||
           ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
           ec == asio::error::operation_aborted || ec == asio::error::not_connected;
}

}  // namespace

connection_io::connection_io(
    tcp::socket socket, const limits_config& limits, bool access_log, send_batch* sends
)
    : stream_(std::move(socket)), limits_(limits), access_log_(access_log), sends_(sends) {
    boost::system::error_code ignored;
    if (synchronous_first_write) {
        stream_.socket().non_blocking(true, ignored);
    }
    peer_ = stream_.socket().remote_endpoint(ignored).address();
    peer_text_ = peer_.to_string();
}

asio::awaitable<std::size_t> connection_io::read_header_section(bool first_request) {
    skip_leading_empty_lines(buffer_);
    if (buffer_.size() == 0) {
        // Idle: a new connection gets the header timeout, a kept-alive one the keep-alive timeout.
        stream_.expires_after(first_request ? limits_.header_timeout : limits_.keepalive_timeout);
        auto [ec, n] = co_await stream_.async_read_some(buffer_.prepare(read_chunk), use_tuple);
        if (ec) {
            co_return no_header;
        }
        buffer_.commit(n);
    }
    bool header_deadline_armed = false;  // armed only if the header needs more reads (rarely)
    std::size_t end = 0;
    for (;;) {
        skip_leading_empty_lines(buffer_);
        end = header_section_end(view_of(buffer_));
        if (end != std::string_view::npos) {
            break;
        }
        if (buffer_.size() > limits_.header_limit) {
            const response too_large = styled_error(
                error_style::store,
                http::status::request_header_fields_too_large,
                "Request header fields too large"
            );
            co_await refuse(too_large);
            co_return no_header;
        }
        if (!header_deadline_armed) {
            stream_.expires_after(limits_.header_timeout);  // the whole header, from about its first byte
            header_deadline_armed = true;
        }
        // On timeout tcp_stream has closed the socket already: a slow client is just disconnected,
        // as nginx does after client_header_timeout.
        auto [ec, n] = co_await stream_.async_read_some(buffer_.prepare(read_chunk), use_tuple);
        if (ec) {
            co_return no_header;
        }
        buffer_.commit(n);
    }
    co_return end;
}

std::string_view connection_io::header(std::size_t end) const {
    return view_of(buffer_).substr(0, end);
}

void connection_io::consume_header(std::size_t end) {
    buffer_.consume(end);
    header_bytes_ = end;
}

asio::awaitable<bool> connection_io::admit_head(request_parser& parser, std::size_t end) {
    const std::string_view bytes = header(end);
    if (auto refusal = admit_header(bytes, parser, limits_)) {
        const response refused =
            styled_error(error_style_of_target(request_target_of(bytes)), refusal->status, refusal->message);
        co_await refuse(refused);
        co_return false;
    }
    consume_header(end);
    co_return true;
}

asio::awaitable<bool> connection_io::read_body(request_parser& parser, std::size_t limit) {
    const auto& header = parser.get().base();
    parser.body_limit(limit);
    if (header.count(http::field::expect) != 0 && header.version() == 11) {
        stream_.expires_after(limits_.write_timeout);
        auto [ec, n] = co_await asio::async_write(stream_, asio::buffer(continue_line), use_tuple);
        if (ec) {
            co_return false;
        }
    }
    // A slow upload gets the base timeout plus its size at the minimum rate (chunked: the limit's).
    const std::size_t expected = parser.content_length().value_or(limit);
    stream_.expires_after(limits_.body_timeout + std::chrono::seconds(expected / limits_.min_body_rate));
    auto [ec, n] = co_await http::async_read(stream_, buffer_, parser, use_tuple);
    if (!ec) {
        co_return true;
    }
    if (ec != beast::error::timeout && !peer_went_away(ec)) {  // a timeout has closed the socket
        const framing_refusal refusal = refusal_for_parse_error(ec);
        const response refused =
            styled_error(error_style_of_target(header.target()), refusal.status, refusal.message);
        co_await refuse(refused);
    }
    co_return false;
}

asio::awaitable<bool> connection_io::send(
    const response& reply, const head_options& options, bool head_only
) {
    write_head(head_, reply, options);
    const std::array<asio::const_buffer, 2> buffers{
        asio::buffer(head_), head_only ? asio::const_buffer() : asio::buffer(reply.payload())};
    // Most responses fit in the socket's send buffer: one non-blocking write, no timer, no async
    // operation; with the thread's batch, one submission for the answers of every connection that was ready
    // together (send_batch.hpp). Only what is left (a big body, a slow reader) goes out asynchronously under
    // the timeout.
    beast::buffers_suffix<std::array<asio::const_buffer, 2>> rest(buffers);
    if (synchronous_first_write) {
        const batched_send_result first =
            sends_ != nullptr && sends_->available()
                ? co_await sends_->send(stream_.socket().native_handle(), buffers)
                : send_now(stream_.socket(), buffers);
        if (first.error) {
            co_return false;
        }
        rest.consume(first.sent);
    }
    if (beast::buffer_bytes(rest) == 0) {
        co_return true;
    }
    stream_.expires_after(limits_.write_timeout);
    auto [write_ec, n] = co_await asio::async_write(stream_, rest, use_tuple);
    co_return !write_ec;
}

// The client may still be sending a body we never read, and closing at once would make the kernel send
// RST and could destroy our answer in flight; so half-close and drain briefly first, as nginx's lingering
// close does.
asio::awaitable<void> connection_io::refuse(const response& reply) {
    const bool written =
        co_await send(reply, {.keep_alive = false, .http10 = false, .more_headers = {}}, false);
    account_refused(reply, head_.size() + reply.payload().size(), peer_text_, access_log_);
    if (written) {
        co_await linger();
    }
}

asio::awaitable<void> connection_io::linger() {
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    std::array<char, 4096> sink{};
    std::size_t drained = 0;
    stream_.expires_after(std::chrono::seconds(1));
    while (drained < 1024 * 1024) {
        auto [ec, n] = co_await stream_.async_read_some(asio::buffer(sink), use_tuple);
        if (ec) {
            break;
        }
        drained += n;
    }
}

void connection_io::close() {
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
}

}  // namespace storefront::server
