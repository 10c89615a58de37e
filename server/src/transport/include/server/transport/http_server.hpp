#pragma once
// The listener: one io_context, acceptor (SO_REUSEPORT) and thread per configured I/O thread, coroutine
// sessions, and graceful shutdown (stop accepting, close idle connections, let in-flight requests finish).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "server/ops/server_config.hpp"
#include "server/ops/serving_state.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/rate_limit.hpp"

namespace storefront::server {

struct worker;

// What the listener and its sessions use: dispatch, the serving state (a draining instance closes each
// connection after its next answer), what to call once bound, before any request is served, and the
// rate limit every request's head passes first (none: --rate-limit is off).
struct listener_services {
    const routing_services& routing;
    serving_state& state;
    std::function<void(std::uint16_t port)> listening;
    const rate_limit_gate* rate_limit = nullptr;
};

class http_server {
  public:
    http_server(const server_config& config, listener_services services);
    ~http_server();
    http_server(const http_server&) = delete;
    http_server& operator=(const http_server&) = delete;

    // Binds every acceptor and starts the I/O threads. Throws boost::system::system_error on bind failure.
    void start();

    // The bound port (the chosen one when configured with port 0). Valid after start().
    [[nodiscard]] std::uint16_t port() const noexcept { return port_; }

    // The I/O threads, and a way to run `fn` on thread `i` (the watchdog's liveness probes): valid from
    // start() until wait(); post_to_thread may be called from any thread.
    [[nodiscard]] std::size_t thread_count() const noexcept { return workers_.size(); }
    void post_to_thread(std::size_t i, std::function<void()> fn);

    // Stops accepting and closes idle connections; requests in progress finish and get "Connection: close".
    void begin_shutdown();

    // Waits for all I/O threads; after `bound` the remaining work is abandoned. True if all ended in time.
    bool wait(std::chrono::milliseconds bound);

  private:
    const server_config& config_;
    listener_services services_;
    std::uint16_t port_ = 0;
    std::vector<std::unique_ptr<worker>> workers_;
};

}  // namespace storefront::server
