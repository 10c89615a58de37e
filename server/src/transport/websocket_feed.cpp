// serve_websocket: Beast's websocket::stream over the session's connection, with the server's suggested
// timeouts and keep-alive pings, a read kept pending that queues the client's text messages (binary ones
// close with 1003; Beast itself closes invalid UTF-8 with 1007, oversized messages with 1009 and protocol
// errors such as a 2^63 frame length with 1002), and the stream_sink the answer writes through.

#include "websocket_feed.hpp"

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "use_tuple.hpp"

namespace storefront::server {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

// What the pending read's handlers and the wakers share with the sink: it outlives the sink while a
// handler or a posted wake-up still holds it.
struct connection_state {
    connection_state(beast::tcp_stream&& stream, std::shared_ptr<stream_wakeups> thread_wakeups)
        : ws(std::move(stream)),
          waiter(std::make_shared<stream_waiter>(ws.get_executor())),
          wakeups(std::move(thread_wakeups)) {}
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer in;
    std::deque<std::string> messages;
    std::shared_ptr<stream_waiter> waiter;
    std::shared_ptr<stream_wakeups> wakeups;
    bool gone = false;           // the read ended: the peer closed, broke the protocol, or we closed
    bool close_started = false;  // a close frame is on its way (only one may be)
};
using state_ptr = std::shared_ptr<connection_state>;

// Also from Beast's handlers on the connection's thread: through the batch, so the stream resumes after
// the handler, not inside it.
void wake(const state_ptr& s) {
    s->waiter->wake(*s->wakeups);
}

// Starts the close handshake with `code` unless one is under way (from a read handler: no coroutine).
void close_with(const state_ptr& s, websocket::close_code code, const char* reason) {
    if (s->close_started) {
        return;
    }
    s->close_started = true;
    s->ws.async_close(websocket::close_reason(code, reason), [s](const boost::system::error_code&) {
        s->gone = true;
        wake(s);
    });
}

void read_next(const state_ptr& s, const websocket_limits& limits) {
    s->ws.async_read(s->in, [s, limits](const boost::system::error_code& ec, std::size_t) {
        if (ec) {  // closed by the peer, or by Beast after a bad frame (it sent the matching close code)
            s->gone = true;
            wake(s);
            return;
        }
        if (s->ws.got_binary()) {
            s->in.clear();
            close_with(s, websocket::close_code::unknown_data, "text messages only");
            return;
        }
        s->messages.push_back(beast::buffers_to_string(s->in.data()));
        s->in.clear();
        if (s->messages.size() > limits.pending_max) {
            close_with(s, websocket::close_code::policy_error, "too many messages");
            return;
        }
        wake(s);
        read_next(s, limits);
    });
}

class websocket_sink final : public stream_sink {
  public:
    websocket_sink(state_ptr state, std::function<bool()> closing)
        : s_(std::move(state)), closing_(std::move(closing)) {}

    framing kind() const override { return framing::websocket; }

    asio::awaitable<bool> write(std::string_view text) override {
        if (s_->gone || s_->close_started) {
            co_return false;
        }
        auto [ec, n] = co_await s_->ws.async_write(asio::buffer(text.data(), text.size()), use_tuple);
        written_ += n;
        co_return !ec;
    }
    asio::awaitable<void> wait_until(std::chrono::steady_clock::time_point deadline) override {
        if (s_->gone || !s_->messages.empty() || closing()) {
            co_return;
        }
        co_await s_->waiter->wait_until(deadline);
    }
    std::function<void()> waker() override {
        return [s = s_] { wake(s); };
    }
    bool peer_open() const override { return !s_->gone && !s_->close_started; }
    bool closing() const override { return closing_(); }
    std::optional<std::string> take_message() override {
        if (s_->messages.empty()) {
            return std::nullopt;
        }
        std::string m = std::move(s_->messages.front());
        s_->messages.pop_front();
        return m;
    }
    asio::awaitable<void> close(std::uint16_t code, std::string_view reason) override {
        if (s_->close_started || s_->gone) {
            co_return;
        }
        s_->close_started = true;
        const websocket::close_reason why(static_cast<websocket::close_code>(code), reason.substr(0, 120));
        (void)co_await s_->ws.async_close(why, use_tuple);
        s_->gone = true;
    }
    std::size_t bytes_written() const { return written_; }

  private:
    state_ptr s_;
    std::function<bool()> closing_;
    std::size_t written_ = 0;
};

}  // namespace

asio::awaitable<std::size_t> serve_websocket(
    beast::tcp_stream& stream, const http_request& request, stream_answer& answer, websocket_context context
) {
    const websocket_limits limits = context.limits;
    auto state = std::make_shared<connection_state>(std::move(stream), std::move(context.wakeups));
    auto& ws = state->ws;
    beast::get_lowest_layer(ws).expires_never();  // the websocket timeouts below take over
    // As for SSE: the subscriber's queue, not megabytes of socket buffer, decides when a client is too slow.
    boost::system::error_code ignored_option;
    beast::get_lowest_layer(ws).socket().set_option(
        asio::socket_base::send_buffer_size(64 * 1024), ignored_option
    );
    websocket::stream_base::timeout timeouts =
        websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.idle_timeout = std::chrono::seconds(30);
    timeouts.keep_alive_pings = true;  // a ping at half the idle time; no answer at all: closed
    ws.set_option(timeouts);
    ws.read_message_max(limits.message_max);
    ws.auto_fragment(false);
    ws.set_option(websocket::stream_base::decorator([](websocket::response_type& r) {
        r.set(http::field::server, "storefront");
    }));
    // The handshake's Origin was checked against --cors-origins by routing (refuse_websocket_origin).
    auto [ec] = co_await ws.async_accept(request, use_tuple);
    if (ec) {  // Beast has answered the handshake (400, or 426 with Sec-WebSocket-Version: 13)
        co_return 0;
    }
    read_next(state, limits);
    websocket_sink sink(state, std::move(context.closing));
    context.on_interrupt(sink.waker());
    co_await answer.run(sink);
    context.on_interrupt(nullptr);
    state->waiter->cancel();  // its deadline timer would otherwise keep the thread's io_context busy
    if (!state->close_started && !state->gone) {
        co_await sink.close(static_cast<std::uint16_t>(websocket::close_code::normal), "");
    }
    boost::system::error_code ignored;
    beast::get_lowest_layer(ws).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws).socket().close(ignored);
    co_return sink.bytes_written();
}

}  // namespace storefront::server
