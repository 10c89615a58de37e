#pragma once
// The bytes of one HTTP/1.1 connection and nothing else: read a request's header section (idle, header
// and keep-alive timeouts), check its framing, read its body under a limit (100-continue, a deadline that
// grows with the size), write an answer, refuse with a lingering close. Knows no routes.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "server/codec/response.hpp"
#include "server/ops/server_config.hpp"
#include "server/transport/framing_policy.hpp"
#include "server/transport/send_batch.hpp"
#include "server/transport/wire.hpp"

namespace storefront::server {

class connection_io {
  public:
    static constexpr std::size_t no_header = std::string_view::npos;

    // `sends`: the I/O thread's batch that answers go out in (send_batch.hpp); nullptr: each its own send.
    connection_io(
        boost::asio::ip::tcp::socket socket, const limits_config& limits, bool access_log, send_batch* sends
    );

    [[nodiscard]] boost::beast::tcp_stream& stream() { return stream_; }
    [[nodiscard]] const boost::asio::ip::address& peer() const { return peer_; }
    [[nodiscard]] const std::string& peer_text() const { return peer_text_; }
    [[nodiscard]] std::chrono::seconds write_timeout() const { return limits_.write_timeout; }

    // Reads until the buffer holds one request's whole header section; returns its length, or no_header
    // when there is none to answer: the peer left, timed out while idle, or the header was too large (the
    // refusal has then been sent).
    [[nodiscard]] boost::asio::awaitable<std::size_t> read_header_section(bool first_request);

    // The first `end` bytes buffered: the header section read_header_section found.
    [[nodiscard]] std::string_view header(std::size_t end) const;

    // Drops the header section of `end` bytes from the buffer: it was answered or parsed.
    void consume_header(std::size_t end);

    // The bytes of the current request's header section (for the metrics).
    [[nodiscard]] std::size_t header_bytes() const { return header_bytes_; }

    // Parses the header section of `end` bytes into `parser` and checks its framing. False when it was
    // refused (the refusal has then been sent).
    [[nodiscard]] boost::asio::awaitable<bool> admit_head(request_parser& parser, std::size_t end);

    // Reads the body of `parser`'s request under `limit` bytes. False when it could not: refused (sent),
    // timed out or the peer left.
    [[nodiscard]] boost::asio::awaitable<bool> read_body(request_parser& parser, std::size_t limit);

    // Writes `reply` under a head built from `options`; the body only unless `head_only`. False on error.
    [[nodiscard]] boost::asio::awaitable<bool> send(
        const response& reply, const head_options& options, bool head_only
    );

    // The size of the last head send() wrote.
    [[nodiscard]] std::size_t head_written() const { return head_.size(); }

    // Answers a request that will not be dispatched, counts it, then closes without a reset.
    // (Callers pass a named local, never a temporary: GCC 12 destroys temporaries in a co_await
    // expression twice, bug 99576.)
    [[nodiscard]] boost::asio::awaitable<void> refuse(const response& reply);

    // After a last answer while the client may still be sending: half-close, then read and discard for a
    // moment (at most 1 MiB, 1 s), so closing does not reset the connection under the answer in flight.
    [[nodiscard]] boost::asio::awaitable<void> linger();

    void close();

  private:
    boost::beast::tcp_stream stream_;
    boost::asio::ip::address peer_;
    std::string peer_text_;
    boost::beast::flat_buffer buffer_;
    std::string head_;              // the last head written
    std::size_t header_bytes_ = 0;  // the current request's header section
    const limits_config& limits_;
    bool access_log_;
    send_batch* sends_;  // may be null
};

}  // namespace storefront::server
