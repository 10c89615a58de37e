#pragma once
// Event copies sent together. When a published event wakes many streams of one I/O thread, each stream's
// write joins the thread's batch (while stream_wakeups runs the wake-ups) instead of making a send(2) of its
// own, and the batch goes to the kernel in one io_uring submission (liburing). A loopback copy cost 5.5 µs
// as a system call of its own and 4.0 µs in a batch on this machine, where a system call's entry and exit
// alone cost about 1 µs (bench/RESULTS.md, session 31); at 10,000 subscribers that is the change feed's
// delivery time. Each send is non-blocking (MSG_DONTWAIT): the kernel answers it inside the submission with
// what the socket took, so the writer learns the same as from its own write and sends any rest itself.
// Where io_uring cannot be set up (a container's seccomp profile, kernel.io_uring_disabled) the batch never
// collects and every write is its own send, as before.

#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/system/error_code.hpp>

#include "server/transport/parked_handler.hpp"

namespace storefront::server {

// What one send gave: the bytes the socket took (0 when it would have blocked) or the error.
struct batched_send_result {
    boost::system::error_code error;
    std::size_t sent = 0;
};

// One I/O thread's (touched on that thread only).
class send_batch {
  public:
    // use_ring false: never collects (the fallback, also for tests of it). The ring itself is set up at the
    // first collect(), so a thread without event streams never makes one.
    explicit send_batch(bool use_ring = true);
    ~send_batch();
    send_batch(const send_batch&) = delete;
    send_batch& operator=(const send_batch&) = delete;

    // Starts collecting, when io_uring is there; returns whether it collects.
    bool collect();
    bool collecting() const { return collecting_; }
    // While collecting: queues a send of `bytes` (kept alive by the caller until this completes) on the
    // connected socket `fd`; completes inside flush().
    [[nodiscard]] boost::asio::awaitable<batched_send_result> send(int fd, std::string_view bytes);
    // Submits what is queued, resumes each writer with its result (and sends what the resumed writers queue
    // meanwhile), then stops collecting.
    void flush();
    // Submissions made so far (for tests: several writes, one submission).
    std::size_t submissions() const { return submissions_; }

  private:
    struct queued_send {
        int fd;
        std::string_view bytes;
        batched_send_result result;
        parked_handler<batched_send_result> writer;
    };
    struct ring;  // liburing's, kept out of this header

    void submit(std::vector<queued_send>& sends);
    void submit_chunk(queued_send* first, std::size_t count);

    bool use_ring_;
    bool collecting_ = false;
    std::unique_ptr<ring> ring_;  // null until the first collect(), and when it could not be set up
    std::vector<queued_send> queued_;
    std::vector<queued_send> running_;
    std::size_t submissions_ = 0;
};

}  // namespace storefront::server
