#pragma once
// Delivers an answer with a long-lived body (the change feed, the inspector's stream): the head (no
// Content-Length, Connection: close), then the answer's run() writes through the connection until it ends.
// A WebSocket upgrade gets the same answer over Beast's WebSocket instead. Shutdown interrupts it through
// the connection's slot; the peer closing its side is noticed by a read kept pending.

#include <cstddef>

#include <boost/asio/awaitable.hpp>

#include "connection_io.hpp"
#include "server/ops/serving_state.hpp"
#include "server/routing/request_context.hpp"
#include "worker.hpp"

namespace storefront::server {

// What a stream wrote, for the metrics and access log.
struct stream_delivered {
    http::status status;    // the answer's, or 101 for a WebSocket
    std::size_t bytes = 0;  // written after the head (or the handshake)
};

// The connection a stream goes out on: its I/O, the worker that owns it (its wakeups, whether it stops),
// the instance's serving state (whether it drains) and its slot, for shutdown (may be nullptr).
struct stream_connection {
    connection_io& io;
    worker& owner;
    const serving_state& state;
    connection_slot* slot;
};

// Streams `reply` (whose `stream` is set) to `request` on `on`; `options` are the head's (keep_alive is
// ignored: the connection closes after the stream).
[[nodiscard]] boost::asio::awaitable<stream_delivered> deliver_stream(
    const stream_connection& on, const http_request& request, const response& reply, head_options options
);

}  // namespace storefront::server
