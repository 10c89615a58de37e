// event_stream_sink: see the header.

#include "event_stream_sink.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace storefront::server {

namespace asio = boost::asio;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
// Bounds what the kernel holds for a client that stops reading, so the subscriber's own queue (not
// megabytes of socket buffer) decides when it is too slow.
constexpr int stream_send_buffer = 64 * 1024;

}  // namespace

// The keep-alive timer's handler. Destroyed without having run only when the io_context goes away with the
// stream parked: it then drops the parked wait, whose coroutine frame holds the sink that holds `shared`
// (a cycle that would otherwise never be freed).
struct event_stream_sink::keep_alive_due {
    std::shared_ptr<shared> s;

    explicit keep_alive_due(std::shared_ptr<shared> state) : s(std::move(state)) {}
    keep_alive_due(keep_alive_due&&) noexcept = default;
    keep_alive_due& operator=(keep_alive_due&&) = delete;
    ~keep_alive_due() {
        if (s) {
            s->parked.drop();
        }
    }
    void operator()(const boost::system::error_code& ec) {
        const auto state = std::move(s);
        if (!ec) {  // due; not when re-armed for a later deadline or cancelled
            state->pending.store(true);
            state->wake_now();
        }
    }
};

void event_stream_sink::shared::wake_now() {
    if (parked) {
        parked.resume();  // runs the stream until it waits again
    }
}

event_stream_sink::event_stream_sink(
    boost::beast::tcp_stream& stream,
    std::chrono::seconds write_timeout,
    const worker& owner,
    const serving_state& state
)
    : stream_(stream),
      write_timeout_(write_timeout),
      owner_(owner),
      state_(state),
      wakeups_(owner.wakeups),
      shared_(std::make_shared<shared>(stream.get_executor())) {
    boost::system::error_code ignored;
    stream_.socket().set_option(asio::socket_base::send_buffer_size(stream_send_buffer), ignored);
    // A request never has more to send on a stream's connection: a read that completes means the peer closed
    // (or broke the protocol); either way the stream ends.
    stream_.socket().async_read_some(
        asio::buffer(shared_->sink),
        [s = shared_](const boost::system::error_code&, std::size_t) {
            s->peer_gone = true;
            s->wake_now();
        }
    );
}

event_stream_sink::~event_stream_sink() {
    boost::system::error_code ignored;
    stream_.socket().cancel(ignored);  // the pending read ends; its handler holds only `shared_`
    shared_->timer.cancel();
}

asio::awaitable<bool> event_stream_sink::write(std::string_view bytes) {
    if (shared_->peer_gone) {
        co_return false;
    }
    // An event usually fits in the socket's send buffer: one non-blocking write, no timer, no asynchronous
    // operation (at 10,000 subscribers every event is written 10,000 times). The rest, for a client that
    // reads slowly, goes out asynchronously under the write timeout.
    boost::system::error_code ec;
    const std::size_t sent = stream_.socket().write_some(asio::buffer(bytes.data(), bytes.size()), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again &&
        ec != asio::error::interrupted) {
        co_return false;
    }
    const std::size_t done = ec ? 0 : sent;
    written_ += done;
    if (done == bytes.size()) {
        co_return true;
    }
    bytes.remove_prefix(done);
    stream_.expires_after(write_timeout_);
    auto [write_ec, n] =
        co_await asio::async_write(stream_, asio::buffer(bytes.data(), bytes.size()), use_tuple);
    written_ += n;
    co_return !write_ec;
}

asio::awaitable<void> event_stream_sink::wait_until(std::chrono::steady_clock::time_point deadline) {
    if (shared_->pending.exchange(false) || shared_->peer_gone || closing() ||
        deadline <= std::chrono::steady_clock::now()) {
        co_return;
    }
    arm(deadline);
    co_await asio::async_initiate<const asio::use_awaitable_t<>&, void()>(
        [s = shared_.get()](auto handler) { s->parked.park(std::move(handler)); }, asio::use_awaitable
    );
    // Woken: what woke it is read by the caller (the subscription's queue, peer_open(), closing()).
    shared_->pending.store(false);
}

void event_stream_sink::arm(std::chrono::steady_clock::time_point deadline) {
    if (deadline == shared_->armed_for) {
        return;  // the usual case: the keep-alive deadline moves once per keep-alive period
    }
    shared_->armed_for = deadline;
    shared_->timer.expires_at(deadline);  // a wait for the old deadline ends with operation_aborted
    shared_->timer.async_wait(keep_alive_due(shared_));
}

std::function<void()> event_stream_sink::waker() {
    return [s = shared_, wakeups = wakeups_] {
        if (!s->pending.exchange(true)) {
            wakeups->add(s);
        }
    };
}

}  // namespace storefront::server
