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

// Streams `reply` (whose `stream` is set) to `request` on `io`; `options` are the head's (keep_alive is
// ignored: the connection closes after the stream). `slot`: the connection's, for shutdown (may be nullptr).
[[nodiscard]] boost::asio::awaitable<stream_delivered> deliver_stream(
    connection_io& io,
    const http_request& request,
    const response& reply,
    head_options options,
    worker& owner,
    const serving_state& state,
    connection_slot* slot
);

}  // namespace storefront::server
