#pragma once
// A long-lived answer (issue 43: the change feed): the session either writes the response head (no
// Content-Length: the body ends when the connection closes) or, for a WebSocket upgrade, completes the
// handshake; then it hands the connection to the answer's run(), which writes through a stream_sink until
// it is done, the peer leaves or the instance stops. The sink is the session's; the answer knows no
// sockets, timers or frames.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>

namespace storefront::server {

struct response;  // codec/response.hpp, which holds a stream_answer

class stream_sink {
  public:
    enum class framing {
        event_stream,  // text/event-stream: write() takes raw bytes ("id: …\nevent: …\ndata: …\n\n")
        websocket,     // write() sends one text message; the client's text messages come from take_message()
    };
    [[nodiscard]] virtual framing kind() const = 0;

    // Writes `bytes` under the write timeout. False when the peer is gone or did not take them in time.
    [[nodiscard]] virtual boost::asio::awaitable<bool> write(std::string_view bytes) = 0;
    // Returns at `deadline`, or earlier: after a call of waker()'s function (since the last wait), when a
    // client message arrived, once the peer has closed its side, or once the instance stops.
    [[nodiscard]] virtual boost::asio::awaitable<void> wait_until(
        std::chrono::steady_clock::time_point deadline
    ) = 0;
    // A function that ends the current (or next) wait_until early; callable from any thread, any time
    // (also after the stream ended).
    [[nodiscard]] virtual std::function<void()> waker() = 0;
    // False once the peer has closed the connection (or broke the protocol: then it was closed with the
    // matching WebSocket close code).
    [[nodiscard]] virtual bool peer_open() const = 0;
    // True while the instance drains or stops: the stream should end now, telling the client to retry.
    [[nodiscard]] virtual bool closing() const = 0;

    // WebSocket: the next text message the client sent, if one arrived (never waits).
    [[nodiscard]] virtual std::optional<std::string> take_message() { return std::nullopt; }
    // WebSocket: a close frame with `code` (RFC 6455 §7.4) and `reason`, then the end. Event streams: no-op.
    [[nodiscard]] virtual boost::asio::awaitable<void> close(std::uint16_t code, std::string_view reason) {
        (void)code;
        (void)reason;
        co_return;
    }

  protected:
    ~stream_sink() = default;
};

class stream_answer {
  public:
    virtual ~stream_answer() = default;
    // Writes the body (or the messages). The connection closes when this returns.
    [[nodiscard]] virtual boost::asio::awaitable<void> run(stream_sink& out) = 0;
};

// The answer to a request for an event stream: 200 with the text/event-stream head (never cached, nor
// buffered by a proxy) and `stream` as its body; or, when `stream` is null because the server's limit of open
// streams refused a ticket, 503 with Retry-After.
[[nodiscard]] response event_stream_response(std::shared_ptr<stream_answer> stream);

}  // namespace storefront::server
