#pragma once
// The stop sequence before the listeners close: wait for SIGTERM/SIGINT, then drain — /readyz answers 503
// and each connection closes after its next response, while requests are still served for the drain
// period, so a load balancer moves traffic away before anything is refused. A second signal ends the
// drain at once.

#include <chrono>
#include <functional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "server/ops/serving_state.hpp"

namespace storefront::server {

struct stop_request {
    int signal = 0;          // the first SIGTERM or SIGINT
    bool cut_short = false;  // a second signal ended the drain early
};

// Runs `io` (which owns `signals`) until the first signal, begins the drain on `state` (and tells systemd
// STOPPING=1) and calls `on_drain` (the change feed's streams end with a retry hint), then runs until
// `drain` has passed or a second signal came.
[[nodiscard]] stop_request wait_and_drain(
    boost::asio::io_context& io,
    boost::asio::signal_set& signals,
    serving_state& state,
    std::chrono::seconds drain,
    const std::function<void()>& on_drain = {}
);

}  // namespace storefront::server
