#pragma once
// The stream_sink of one server-sent event stream: writes go straight to the connection's socket under the
// write timeout; a wait ends early when an event is published (waker), the peer closes, or the instance
// stops. The session answers a stream's head, then hands the answer this sink.
//
// A waiting stream is a parked completion handler, not a timer wait: a wake-up (batched per I/O thread by
// stream_wakeups) resumes it directly, and the keep-alive timer is armed once per keep-alive period, not
// cancelled and re-armed for every event.

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include <boost/asio/steady_timer.hpp>
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
    bool peer_open() const override { return !shared_->peer_gone; }
    bool closing() const override { return owner_.stopping || state_.draining(); }
    std::size_t bytes_written() const { return written_; }

  private:
    // What outlives the sink: the parked wait, its keep-alive timer and the pending read's buffer; the
    // wakers, the timer's and the read's handlers hold it. Touched on the connection's thread only, but
    // `pending`, which wakers set from any thread.
    // The parked coroutine's completion handler (move-only; asio's any_completion_handler of Boost 1.81
    // recurses without end when moved from an lvalue, so a small holder of our own).
    class parked_wait {
      public:
        template <typename Handler>
        void park(Handler&& h) {
            held_ = std::make_unique<holder<std::decay_t<Handler>>>(std::forward<Handler>(h));
        }
        explicit operator bool() const { return held_ != nullptr; }
        void resume() { std::exchange(held_, nullptr)->resume(); }
        void drop() { held_.reset(); }

      private:
        struct base {
            virtual ~base() = default;
            virtual void resume() = 0;
        };
        template <typename Handler>
        struct holder final : base {
            explicit holder(Handler&& h) : handler(std::move(h)) {}
            void resume() override { std::move(handler)(); }
            Handler handler;
        };
        std::unique_ptr<base> held_;
    };
    struct shared final : wakeable {
        explicit shared(const boost::asio::any_io_executor& ex) : timer(ex) {}
        void wake_now() override;  // resumes the parked wait, if any
        boost::asio::steady_timer timer;
        std::chrono::steady_clock::time_point armed_for{};  // the timer's deadline
        parked_wait parked;
        std::atomic<bool> pending{false};  // woken since the last wait ended
        bool peer_gone = false;
        std::array<char, 64> sink{};
    };
    struct keep_alive_due;
    void arm(std::chrono::steady_clock::time_point deadline);

    boost::beast::tcp_stream& stream_;
    std::chrono::seconds write_timeout_;
    const worker& owner_;
    const serving_state& state_;
    std::shared_ptr<stream_wakeups> wakeups_;
    std::shared_ptr<shared> shared_;
    std::size_t written_ = 0;
};

}  // namespace storefront::server
