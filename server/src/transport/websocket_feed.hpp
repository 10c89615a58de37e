#pragma once
// A streamed answer over WebSocket (issue 43): the session hands over its connection and the parsed
// upgrade request; Beast completes the handshake (a bad key or version is refused by Beast with 400 or 426
// and Sec-WebSocket-Version: 13) and the answer runs over JSON text messages. Private to transport/.

#include <cstddef>
#include <functional>
#include <memory>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "server/codec/stream_answer.hpp"
#include "server/routing/request_context.hpp"
#include "stream_wakeups.hpp"

namespace storefront::server {

struct websocket_limits {
    std::size_t message_max = 4096;  // bytes of one client message (close 1009 beyond)
    std::size_t pending_max = 16;    // client messages not yet handled (close 1008 beyond)
};

// What the connection's owner gives a WebSocket answer besides the request: its limits, `wakeups` (the I/O
// thread's) that wake the answer's waits, `closing` that tells whether the instance drains, and
// `on_interrupt` that receives the function ending the answer's wait (shutdown).
struct websocket_context {
    websocket_limits limits;
    std::shared_ptr<stream_wakeups> wakeups;
    std::function<bool()> closing;
    std::function<void(std::function<void()>)> on_interrupt;
};

// Accepts `request` on `stream` (moved from), then runs `answer` in `context`. Answers the bytes written
// after the handshake.
[[nodiscard]] boost::asio::awaitable<std::size_t> serve_websocket(
    boost::beast::tcp_stream& stream,
    const http_request& request,
    stream_answer& answer,
    websocket_context context
);

}  // namespace storefront::server
