#pragma once
// One I/O thread's state: its io_context, acceptor and the sessions it owns (touched only on that thread).

#include <functional>
#include <list>
#include <memory>
#include <thread>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "replay_entry.hpp"
#include "server/ops/server_config.hpp"
#include "server/transport/http_server.hpp"
#include "stream_wakeups.hpp"

namespace storefront::server {

struct connection_slot {
    boost::beast::tcp_stream* stream;
    bool busy = false;  // a request is being answered; shutdown lets it finish
    // Set while the connection streams (an event stream): shutdown calls it so the stream ends now.
    std::function<void()> interrupt;
    // Counted in open_connections (--max-connections) until it becomes an event stream, which
    // --events-max-connections bounds instead: open streams never keep ordinary requests out.
    bool counted = true;
};

struct worker {
    boost::asio::io_context io{1};
    boost::asio::ip::tcp::acceptor acceptor{io};
    // Wakers of this thread's event streams hold it: it outlives the thread, dropping wake-ups once closed.
    std::shared_ptr<stream_wakeups> wakeups = std::make_shared<stream_wakeups>(io);
    std::list<connection_slot> connections;
    std::size_t open_connections = 0;  // counted from accept, before the session registers its slot
    boost::asio::steady_timer capacity_freed{io};  // cancelled whenever a connection ends
    bool stopping = false;
    replay_cache replay;  // answers to repeated GETs of this thread's connections
    std::thread thread;
};

// Serves one connection until the peer closes, an error, a timeout or shutdown.
boost::asio::awaitable<void> run_session(
    boost::asio::ip::tcp::socket socket,
    worker& owner,
    const listener_services& services,
    const server_config& config
);

}  // namespace storefront::server
