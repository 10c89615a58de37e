// Listener set-up, accept loops and the shutdown sequence.

#include "server/transport/http_server.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <sys/socket.h>

#include "server/telemetry/log.hpp"
#include "server/telemetry/thread_name.hpp"
#include "worker.hpp"

namespace storefront::server {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

using reuse_port = asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>;

// Fails with "address in use" if something else already listens there: SO_REUSEPORT alone would let a
// second storefront silently share the port with a stale one.
void probe_port_free(const tcp::endpoint& endpoint) {
    asio::io_context io;
    tcp::acceptor probe(io);
    probe.open(endpoint.protocol());
    probe.set_option(tcp::acceptor::reuse_address(true));
    probe.bind(endpoint);
}

asio::awaitable<void> accept_loop(worker& w, const listener_services& services, const server_config& config) {
    const std::size_t threads = std::max<std::size_t>(1, config.threads);
    const std::size_t max_open =
        std::max<std::size_t>(1, (config.limits.max_connections + threads - 1) / threads);
    for (;;) {
        // Back-pressure: at the limit, stop accepting until a connection ends; new ones wait in the
        // kernel's listen backlog instead of costing us memory.
        while (w.open_connections >= max_open && !w.stopping) {
            w.capacity_freed.expires_at(asio::steady_timer::time_point::max());
            co_await w.capacity_freed.async_wait(asio::as_tuple(asio::use_awaitable));
        }
        if (w.stopping) {
            co_return;
        }
        auto [ec, socket] = co_await w.acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
        if (ec) {
            if (!w.acceptor.is_open() || ec == asio::error::operation_aborted) {
                co_return;
            }
            // Out of descriptors or similar: back off instead of spinning, keep serving.
            log_event("warning", "accept_failed", {field("error", ec.message())});
            asio::steady_timer pause(w.io, std::chrono::milliseconds(50));
            co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
            continue;
        }
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);  // no Nagle stall on keep-alive responses
        ++w.open_connections;
        asio::co_spawn(w.io, run_session(std::move(socket), w, services, config), [](std::exception_ptr e) {
            if (e) {
                try {
                    std::rethrow_exception(e);
                } catch (const std::exception& ex) {
                    log_event("error", "session_failed", {field("what", ex.what())});
                }
            }
        });
    }
}

}  // namespace

http_server::http_server(const server_config& config, listener_services services)
    : config_(config), services_(std::move(services)) {}

http_server::~http_server() {
    if (!workers_.empty()) {
        begin_shutdown();
        wait(std::chrono::milliseconds(100));
    }
}

void http_server::start() {
    const auto address = asio::ip::make_address(config_.address);
    port_ = config_.port;
    if (port_ != 0) {
        probe_port_free({address, port_});
    }
    const std::size_t threads = config_.threads == 0 ? 1 : config_.threads;
    for (std::size_t i = 0; i < threads; ++i) {
        auto w = std::make_unique<worker>();
        const tcp::endpoint endpoint{address, port_};
        w->acceptor.open(endpoint.protocol());
        w->acceptor.set_option(tcp::acceptor::reuse_address(true));
        w->acceptor.set_option(reuse_port(true));  // the kernel spreads connections over the acceptors
        w->acceptor.bind(endpoint);
        w->acceptor.listen(asio::socket_base::max_listen_connections);
        port_ = w->acceptor.local_endpoint().port();  // port 0: every later acceptor joins the chosen port
        workers_.push_back(std::move(w));
    }
    if (services_.listening) {
        services_.listening(port_);
    }
    for (std::size_t i = 0; i < workers_.size(); ++i) {
        auto& w = *workers_[i];
        asio::co_spawn(w.io, accept_loop(w, services_, config_), asio::detached);
        std::string name = "sf-io:" + std::to_string(port_) + "/" + std::to_string(i);
        w.thread = std::thread([&io = w.io, name = std::move(name)] {
            name_this_thread(name);
            io.run();
        });
    }
}

void http_server::post_to_thread(std::size_t i, std::function<void()> fn) {
    asio::post(workers_.at(i)->io, std::move(fn));
}

void http_server::begin_shutdown() {
    for (auto& w : workers_) {
        asio::post(w->io, [&w = *w] {
            w.stopping = true;
            boost::system::error_code ignored;
            w.acceptor.close(ignored);
            w.capacity_freed.cancel();
            for (auto& slot : w.connections) {
                if (slot.interrupt) {
                    slot.interrupt();  // a stream ends now, with its retry hint
                } else if (!slot.busy) {
                    slot.stream->cancel();  // an idle keep-alive read ends now
                }
            }
        });
    }
}

bool http_server::wait(std::chrono::milliseconds bound) {
    const auto deadline = std::chrono::steady_clock::now() + bound;
    bool in_time = true;
    for (auto& w : workers_) {
        while (!w->io.stopped() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        if (!w->io.stopped()) {
            in_time = false;
            w->io.stop();  // abandon what is left
        }
    }
    for (auto& w : workers_) {
        if (w->thread.joinable()) {
            w->thread.join();
        }
        w->wakeups->close();  // a subscription left behind may still be woken; its io_context goes now
    }
    workers_.clear();
    return in_time;
}

}  // namespace storefront::server
