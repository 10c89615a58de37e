// send_batch: see the header.

#include "server/transport/send_batch.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <liburing.h>

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <sys/socket.h>
#include <sys/uio.h>

namespace storefront::server {

namespace {

// Sends per submission: 10,000 copies take 40 system calls instead of 10,000.
constexpr unsigned ring_entries = 256;
// user_data of a cancellation; a send's is its index in its chunk.
constexpr std::uint64_t cancel_tag = std::uint64_t{1} << 63;
// A submission the kernel refused for the moment (EINTR, EAGAIN) is tried this often before the ring is given
// up.
constexpr int submit_attempts = 8;

batched_send_result result_of(int res) {
    if (res >= 0) {
        return {{}, static_cast<std::size_t>(res)};
    }
    if (res == -EAGAIN || res == -EWOULDBLOCK || res == -EINTR || res == -ECANCELED) {
        return {};  // nothing taken: the writer sends it itself, as after its own would-block write
    }
    return {boost::system::error_code(-res, boost::system::system_category()), 0};
}

}  // namespace

struct send_batch::ring {
    io_uring uring{};
    bool live = false;  // set up: its exit is due

    ring() = default;
    ring(const ring&) = delete;
    ring& operator=(const ring&) = delete;
    ~ring() {
        if (live) {
            io_uring_queue_exit(&uring);
        }
    }

    // Null when the kernel or a seccomp filter says no. SUBMIT_ALL: a send that fails to start still uses up
    // its entry (an error completion), so nothing of a batch stays behind in the queue for a later
    // submission.
    static std::unique_ptr<ring> make() {
        auto r = std::make_unique<ring>();
        io_uring_params params{};
        params.flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN;
        r->live = io_uring_queue_init_params(ring_entries, &r->uring, &params) == 0;
        return r->live ? std::move(r) : nullptr;
    }
};

// One writer's send: its buffers as the kernel reads them, and what it will be told.
struct send_batch::queued_send {
    int fd;
    std::array<iovec, 2> parts;
    msghdr message;  // pointed at `parts` when submitted (the vector may move entries until then)
    batched_send_result result;
    parked_handler<batched_send_result> writer;
};

send_batch::send_batch(boost::asio::io_context& io, bool use_ring) : io_(io), use_ring_(use_ring) {}

send_batch::~send_batch() = default;

bool send_batch::available() {
    if (use_ring_ && !ring_) {
        ring_ = ring::make();
        use_ring_ = ring_ != nullptr;
    }
    return use_ring_;
}

// Not a coroutine itself: the writer's frame waits on the initiation directly (one frame fewer per answer).
boost::asio::awaitable<batched_send_result> send_batch::send(
    int fd, std::array<boost::asio::const_buffer, 2> bytes
) {
    return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(batched_send_result)>(
        [this, fd, bytes](auto handler) {
            queued_send& q = queued_.emplace_back();
            q.fd = fd;
            for (std::size_t i = 0; i < 2; ++i) {
                q.parts[i] = {
                    const_cast<void*>(bytes[i].data()), bytes[i].size()};  // sendmsg only reads them
            }
            q.writer.park(std::move(handler));
            if (!flush_posted_) {
                // After the handlers already ready on this thread (the other connections of the same wait):
                // their answers join this submission.
                flush_posted_ = true;
                boost::asio::post(io_, [this] {
                    flush_posted_ = false;
                    flush();
                });
            }
        },
        boost::asio::use_awaitable
    );
}

void send_batch::flush() {
    while (!queued_.empty()) {
        running_.swap(queued_);  // writers resumed below may queue their next event meanwhile
        submit(running_);
        for (queued_send& s : running_) {
            s.writer.resume(s.result);
        }
        running_.clear();
    }
}

void send_batch::abandon() {
    queued_.clear();
    running_.clear();
    flush_posted_ = false;
}

void send_batch::submit(std::vector<queued_send>& sends) {
    for (std::size_t at = 0; at < sends.size() && ring_; at += ring_entries) {
        submit_chunk(sends.data() + at, std::min<std::size_t>(ring_entries, sends.size() - at));
    }
}

void send_batch::submit_chunk(queued_send* first, std::size_t count) {
    io_uring* r = &ring_->uring;
    for (std::size_t i = 0; i < count; ++i) {
        io_uring_sqe* sqe = io_uring_get_sqe(r);  // never null: the queue is empty and count <= its size
        queued_send& q = first[i];
        q.message = {};
        q.message.msg_iov = q.parts.data();
        q.message.msg_iovlen = q.parts[1].iov_len > 0 ? 2 : 1;
        io_uring_prep_sendmsg(sqe, q.fd, &q.message, MSG_DONTWAIT | MSG_NOSIGNAL);
        io_uring_sqe_set_data64(sqe, i);
    }
    int submitted = -EINTR;
    for (int attempt = 0; attempt < submit_attempts && (submitted == -EINTR || submitted == -EAGAIN);
         ++attempt) {
        submitted = io_uring_submit(r);
    }
    ++submissions_;
    if (submitted < 0) {
        // Nothing went, and the queued entries would go with the next submission: give the ring up (its exit
        // drops them). These writers, and every later one, send by themselves.
        ring_.reset();
        use_ring_ = false;
        return;
    }
    // A non-blocking send is answered inside the submission; one that was not (it never was in tests) is
    // cancelled, so the I/O thread never waits on a client.
    std::vector<bool> answered(count, false);
    std::size_t open = count;
    bool cancelled = false;
    while (open > 0) {
        unsigned head = 0;
        unsigned seen = 0;
        io_uring_cqe* cqe = nullptr;
        io_uring_for_each_cqe(r, head, cqe) {
            ++seen;
            const std::uint64_t i = cqe->user_data;
            if ((i & cancel_tag) == 0 && i < count && !answered[i]) {
                answered[i] = true;
                first[i].result = result_of(cqe->res);
                --open;
            }
        }
        io_uring_cq_advance(r, seen);
        if (open == 0) {
            break;
        }
        if (!cancelled) {
            for (std::size_t i = 0; i < count; ++i) {
                if (!answered[i]) {
                    io_uring_sqe* sqe = io_uring_get_sqe(r);
                    io_uring_prep_cancel64(sqe, i, 0);
                    io_uring_sqe_set_data64(sqe, cancel_tag | i);
                }
            }
            cancelled = true;
        }
        io_uring_submit_and_wait(r, 1);
    }
}

batched_send_result send_now(
    boost::asio::ip::tcp::socket& socket, const std::array<boost::asio::const_buffer, 2>& bytes
) {
    batched_send_result result;
    result.sent = socket.write_some(bytes, result.error);
    namespace error = boost::asio::error;
    if (result.error == error::would_block || result.error == error::try_again ||
        result.error == error::interrupted) {
        result = {};
    }
    return result;
}

}  // namespace storefront::server
