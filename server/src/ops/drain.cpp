// The first stop signal starts the drain; the drain timer or a second signal ends it.

#include "server/ops/drain.hpp"

#include <boost/asio/steady_timer.hpp>

#include "server/ops/systemd_notify.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

stop_request wait_and_drain(
    boost::asio::io_context& io,
    boost::asio::signal_set& signals,
    serving_state& state,
    std::chrono::seconds drain,
    const std::function<void()>& on_drain
) {
    stop_request out;
    signals.async_wait([&](const boost::system::error_code&, int signal_number) {
        out.signal = signal_number;
    });
    io.run();
    io.restart();

    state.begin_drain();
    notify_stopping();
    if (on_drain) {
        on_drain();
    }
    log_event(
        "info",
        "draining",
        {field("signal", static_cast<long long>(out.signal)),
         field("drain_seconds", static_cast<long long>(drain.count()))}
    );
    if (drain.count() == 0) {
        return out;
    }
    boost::asio::steady_timer timer(io, drain);
    timer.async_wait([&](const boost::system::error_code& ec) {
        if (!ec) {
            signals.cancel();  // the drain ran its course
        }
    });
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) {
            out.cut_short = true;
            timer.cancel();
        }
    });
    io.run();
    return out;
}

}  // namespace storefront::server
