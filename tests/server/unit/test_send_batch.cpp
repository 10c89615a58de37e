// An I/O thread's batch of sends (server/transport/send_batch.hpp): what several writers queue goes to the
// kernel in one io_uring submission once the thread's ready handlers have run, each writer learns what its
// socket took (all of it, part of it when the client does not read, or the error of a reset connection), a
// writer that queues again while the batch resumes it is sent in the same flush, and without io_uring the
// batch is not available (writers send alone).
// Real loopback TCP sockets; io_uring must be there (a host that forbids it fails here, it does not skip).

#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/test/unit_test.hpp>

#include "server/transport/send_batch.hpp"

namespace asio = boost::asio;
using asio::ip::tcp;
using storefront::server::batched_send_result;
using storefront::server::send_batch;

namespace {

// A connected pair over 127.0.0.1: `server` sends (non-blocking, as a stream's socket), `client` reads.
struct socket_pair {
    tcp::socket server;
    tcp::socket client;

    explicit socket_pair(asio::io_context& io) : server(io), client(io) {
        tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
        client.connect(acceptor.local_endpoint());
        acceptor.accept(server);
        server.non_blocking(true);
    }
};

std::string read_exactly(tcp::socket& s, std::size_t n) {
    std::string got(n, '\0');
    asio::read(s, asio::buffer(got));
    return got;
}

// Queues `bytes` on `fd` from a coroutine of its own; the result lands in `into` once the batch flushes.
void send_from_a_writer(
    asio::io_context& io,
    send_batch& batch,
    int fd,
    const std::string& bytes,
    batched_send_result& into,
    bool& done
) {
    asio::co_spawn(
        io,
        [&batch, fd, &bytes, &into, &done]() -> asio::awaitable<void> {
            into = co_await batch.send(fd, {asio::buffer(bytes), asio::const_buffer()});
            done = true;
        },
        asio::detached
    );
}

}  // namespace

BOOST_AUTO_TEST_SUITE(send_batch_unit)

BOOST_AUTO_TEST_CASE(copies_of_several_writers_go_in_one_submission_and_each_is_told_what_was_sent) {
    asio::io_context io;
    send_batch batch(io);
    BOOST_REQUIRE_MESSAGE(batch.available(), "io_uring could not be set up on this machine");
    std::vector<socket_pair> pairs;
    for (int i = 0; i < 3; ++i) {
        pairs.emplace_back(io);
    }
    const std::vector<std::string> events = {"data: one\n\n", "data: two\n\n", "data: three\n\n"};
    std::vector<batched_send_result> results(3);
    bool done[3] = {false, false, false};
    for (int i = 0; i < 3; ++i) {
        send_from_a_writer(io, batch, pairs[i].server.native_handle(), events[i], results[i], done[i]);
    }
    io.poll();  // each writer runs until its send is queued; then the flush they posted
    BOOST_TEST(batch.submissions() == 1U);
    for (int i = 0; i < 3; ++i) {
        BOOST_TEST(done[i]);
        BOOST_TEST(!results[i].error);
        BOOST_TEST(results[i].sent == events[i].size());
        BOOST_TEST(read_exactly(pairs[i].client, events[i].size()) == events[i]);
    }
}

BOOST_AUTO_TEST_CASE(a_client_that_does_not_read_takes_part_and_the_writer_is_told_how_much) {
    asio::io_context io;
    send_batch batch(io);
    BOOST_REQUIRE(batch.available());
    socket_pair pair(io);
    pair.server.set_option(asio::socket_base::send_buffer_size(4096));
    pair.client.set_option(asio::socket_base::receive_buffer_size(4096));
    const std::string big(4 * 1024 * 1024, 'x');
    batched_send_result result;
    bool done = false;
    send_from_a_writer(io, batch, pair.server.native_handle(), big, result, done);
    io.poll();  // returns: a send that would block is answered, never waited for
    BOOST_TEST(done);
    BOOST_TEST(!result.error);
    BOOST_TEST(result.sent < big.size());
}

BOOST_AUTO_TEST_CASE(a_reset_connection_is_the_writers_error) {
    asio::io_context io;
    send_batch batch(io);
    BOOST_REQUIRE(batch.available());
    socket_pair pair(io);
    pair.client.set_option(asio::socket_base::linger(true, 0));
    pair.client.close();  // an RST: the next send on the server's side fails
    const std::string event = "data: gone\n\n";
    batched_send_result result;
    bool done = false;
    send_from_a_writer(io, batch, pair.server.native_handle(), event, result, done);
    io.poll();
    BOOST_TEST(done);
    BOOST_TEST(result.error.failed());
    BOOST_TEST(result.sent == 0U);
}

BOOST_AUTO_TEST_CASE(
    a_writer_that_queues_again_while_resumed_is_sent_in_the_same_flush_and_two_buffers_go_as_one
) {
    asio::io_context io;
    send_batch batch(io);
    BOOST_REQUIRE(batch.available());
    socket_pair pair(io);
    const std::string first = "data: 1\n\n";
    const std::string second = "data: 2\n\n";
    std::size_t sent = 0;
    bool done = false;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            sent +=
                (co_await batch.send(pair.server.native_handle(), {asio::buffer(first), asio::buffer(second)})
                )
                    .sent;
            sent += (co_await batch.send(
                         pair.server.native_handle(), {asio::buffer(second), asio::const_buffer()}
                     ))
                        .sent;
            done = true;
        },
        asio::detached
    );
    io.poll();
    BOOST_TEST(done);
    BOOST_TEST(batch.submissions() == 2U);
    BOOST_TEST(sent == first.size() + 2 * second.size());
    BOOST_TEST(read_exactly(pair.client, sent) == first + second + second);
}

BOOST_AUTO_TEST_CASE(without_io_uring_the_batch_is_not_available) {
    asio::io_context io;
    send_batch batch(io, false);
    BOOST_TEST(!batch.available());
    batch.flush();  // nothing queued: nothing happens
    BOOST_TEST(batch.submissions() == 0U);
}

BOOST_AUTO_TEST_SUITE_END()
