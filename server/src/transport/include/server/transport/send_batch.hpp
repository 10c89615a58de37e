#pragma once
// One I/O thread's sends, made together. A writer (a connection's answer, an event stream's copy) queues its
// bytes and waits; the batch goes to the kernel in one io_uring submission (liburing) once the handlers the
// thread already has ready have run (a posted flush), or at once when a caller flushes (the change feed,
// after the wake-ups of one event). A loopback send cost 5.5 µs as a system call of its own and 4.0 µs in a
// batch on this machine, where a system call's entry and exit alone cost about 1 µs (bench/RESULTS.md,
// session 31). Each send is non-blocking (MSG_DONTWAIT): the kernel answers it inside the submission with
// what the socket took, so the writer learns the same as from its own write and sends any rest itself.
// Where io_uring cannot be set up (a container's seccomp profile, kernel.io_uring_disabled) available() is
// false and writers send by themselves, as before.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

#include "server/transport/parked_handler.hpp"

namespace storefront::server {

// What one send gave: the bytes the socket took (0 when it would have blocked) or the error.
struct batched_send_result {
    boost::system::error_code error;
    std::size_t sent = 0;
};

// Touched on its I/O thread only.
class send_batch {
  public:
    // use_ring false: never available (the fallback, also for tests of it). The ring is set up at the first
    // available(), so a thread that never sends never makes one.
    explicit send_batch(boost::asio::io_context& io, bool use_ring = true);
    ~send_batch();
    send_batch(const send_batch&) = delete;
    send_batch& operator=(const send_batch&) = delete;

    // Whether sends can be batched here (sets the ring up the first time).
    bool available();
    // Needs available(): queues a send of `bytes` (one or two buffers, the second may be empty; kept alive by
    // the caller until this completes) on the connected socket `fd`; completes inside a flush with what the
    // socket took (0 when it would have blocked) or the error that ends the connection.
    [[nodiscard]] boost::asio::awaitable<batched_send_result> send(
        int fd, std::array<boost::asio::const_buffer, 2> bytes
    );
    // Submits what is queued, resumes each writer with its result, and sends what the resumed writers queue
    // meanwhile.
    void flush();
    // The thread stopped for good (its io_context may have been stopped with a flush still posted): drops
    // the writers still queued, destroying their coroutines now, while what they refer to still exists.
    void abandon();
    // Submissions made so far (for tests: several writes, one submission).
    std::size_t submissions() const { return submissions_; }

  private:
    struct queued_send;
    struct ring;  // liburing's, kept out of this header

    void submit(std::vector<queued_send>& sends);
    void submit_chunk(queued_send* first, std::size_t count);

    boost::asio::io_context& io_;
    bool use_ring_;
    bool flush_posted_ = false;
    std::unique_ptr<ring> ring_;  // null until the first available(), and when it could not be set up
    std::vector<queued_send> queued_;
    std::vector<queued_send> running_;
    std::size_t submissions_ = 0;
};

// A writer's first attempt where the batch is not available: a non-blocking send of its own on the connected
// socket. Answers what the socket took (0 when it would have blocked, which is no error: the caller sends the
// rest asynchronously, as after a batched send that took nothing) or the error that ends the connection.
batched_send_result send_now(
    boost::asio::ip::tcp::socket& socket, const std::array<boost::asio::const_buffer, 2>& bytes
);

}  // namespace storefront::server
