// event_stream_sink: see the header.

#include "event_stream_sink.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "use_tuple.hpp"

namespace storefront::server {

namespace asio = boost::asio;

namespace {

// Bounds what the kernel holds for a client that stops reading, so the subscriber's own queue (not
// megabytes of socket buffer) decides when it is too slow.
constexpr int stream_send_buffer = 64 * 1024;

}  // namespace

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
      waiter_(std::make_shared<stream_waiter>(stream.get_executor())),
      read_(std::make_shared<read_state>()) {
    boost::system::error_code ignored;
    stream_.socket().set_option(asio::socket_base::send_buffer_size(stream_send_buffer), ignored);
    stream_.socket().non_blocking(true, ignored);  // for write()'s synchronous attempt, on every I/O backend
    // A request never has more to send on a stream's connection: a read that completes means the peer closed
    // (or broke the protocol); either way the stream ends.
    stream_.socket().async_read_some(
        asio::buffer(read_->sink),
        [r = read_, w = waiter_](const boost::system::error_code&, std::size_t) {
            r->peer_gone = true;
            w->wake_now();
        }
    );
}

event_stream_sink::~event_stream_sink() {
    boost::system::error_code ignored;
    stream_.socket().cancel(ignored);  // the pending read ends; its handler holds only `read_` and `waiter_`
    waiter_->cancel();
}

asio::awaitable<bool> event_stream_sink::write(std::string_view bytes) {
    if (read_->peer_gone) {
        co_return false;
    }
    // An event usually fits in the socket's send buffer: one non-blocking write, no timer, no asynchronous
    // operation (at 10,000 subscribers every event is written 10,000 times). The rest, for a client that
    // reads slowly, goes out asynchronously under the write timeout.
    // Woken with other streams of this thread by one event, the write joins their batch (send_batch.hpp).
    const std::array<asio::const_buffer, 2> buffers{
        asio::buffer(bytes.data(), bytes.size()), asio::const_buffer()};
    send_batch& batch = wakeups_->sends();
    const batched_send_result first = batch.available()
                                          ? co_await batch.send(stream_.socket().native_handle(), buffers)
                                          : send_now(stream_.socket(), buffers);
    if (first.error) {
        co_return false;
    }
    const std::size_t done = first.sent;
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
    if (read_->peer_gone || closing()) {
        co_return;
    }
    co_await waiter_->wait_until(deadline);
}

std::function<void()> event_stream_sink::waker() {
    return [w = waiter_, wakeups = wakeups_] { w->wake(*wakeups); };
}

}  // namespace storefront::server
