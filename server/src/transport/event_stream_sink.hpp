#pragma once
// The stream_sink of one server-sent event stream: writes go straight to the connection's socket under the
// write timeout; a wait ends early when an event is published (waker), the peer closes, or the instance
// stops. The session answers a stream's head, then hands the answer this sink.
// Its waits are a stream_waiter's (stream_wakeups.hpp).

#include <array>
#include <chrono>
#include <functional>
#include <memory>

#include <boost/beast/core/tcp_stream.hpp>

#include "server/codec/stream_answer.hpp"
#include "server/ops/serving_state.hpp"
#include "stream_wakeups.hpp"
#include "worker.hpp"

namespace storefront::server {

class event_stream_sink final : public stream_sink {
  public:
    event_stream_sink(
        boost::beast::tcp_stream& stream,
        std::chrono::seconds write_timeout,
        const worker& owner,
        const serving_state& state
    );
    ~event_stream_sink();
    event_stream_sink(const event_stream_sink&) = delete;
    event_stream_sink& operator=(const event_stream_sink&) = delete;

    framing kind() const override { return framing::event_stream; }
    boost::asio::awaitable<bool> write(std::string_view bytes) override;
    boost::asio::awaitable<void> wait_until(std::chrono::steady_clock::time_point deadline) override;
    std::function<void()> waker() override;
    bool peer_open() const override { return !read_->peer_gone; }
    bool closing() const override { return owner_.stopping || state_.draining(); }
    std::size_t bytes_written() const { return written_; }

  private:
    // What the pending read's handler shares with the sink (it outlives the sink until that handler ran).
    struct read_state {
        bool peer_gone = false;  // touched on the connection's thread only
        std::array<char, 64> sink{};
    };

    boost::beast::tcp_stream& stream_;
    std::chrono::seconds write_timeout_;
    const worker& owner_;
    const serving_state& state_;
    std::shared_ptr<stream_wakeups> wakeups_;
    std::shared_ptr<stream_waiter> waiter_;
    std::shared_ptr<read_state> read_;
    std::size_t written_ = 0;
};

}  // namespace storefront::server
