// Long-lived answers over HTTP or WebSocket (stream_delivery.hpp).

#include "stream_delivery.hpp"

#include <functional>

#include <boost/beast/websocket/rfc6455.hpp>

#include "event_stream_sink.hpp"
#include "websocket_feed.hpp"

namespace storefront::server {

boost::asio::awaitable<stream_delivered> deliver_stream(
    const stream_connection& on, const http_request& request, const response& reply, head_options options
) {
    connection_io& io = on.io;
    worker& owner = on.owner;
    const serving_state& state = on.state;
    connection_slot* const slot = on.slot;
    // Named, not temporaries in the co_await expressions: GCC 12 destroys those twice (bug 99576).
    const std::function<void(std::function<void()>)> interrupt_with = [slot](std::function<void()> fn) {
        if (slot != nullptr) {
            slot->interrupt = std::move(fn);
        }
    };
    if (boost::beast::websocket::is_upgrade(request)) {
        // Beast writes the 101 (or refuses the handshake).
        websocket_context context{
            .limits = {},
            .wakeups = owner.wakeups,
            .closing = [&owner, &state] { return owner.stopping || state.draining(); },
            .on_interrupt = interrupt_with};
        const std::size_t sent =
            co_await serve_websocket(io.stream(), request, *reply.stream, std::move(context));
        co_return stream_delivered{.status = http::status::switching_protocols, .bytes = sent};
    }
    const bool head_only = request.method() == http::verb::head;
    options.keep_alive = false;
    const bool written = co_await io.send(reply, options, head_only);
    std::size_t streamed = 0;
    if (written && !head_only) {
        event_stream_sink sink(io.stream(), io.write_timeout(), owner, state);
        interrupt_with(sink.waker());
        co_await reply.stream->run(sink);
        interrupt_with(nullptr);
        streamed = sink.bytes_written();
    }
    co_return stream_delivered{.status = reply.status, .bytes = streamed};
}

}  // namespace storefront::server
