#pragma once
// A test client of the change feed's server-sent events over a plain socket: the request, the head, then
// events one at a time with a deadline each. Its receive buffer may be made small, so that a client that
// stops reading fills the server's side quickly (the slow consumer tests).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace storefront::test {

// One block of the stream up to its blank line: an event (with `data`), or a retry hint or comment alone.
struct sse_block {
    std::string id;
    std::string event;
    std::string data;
    std::string retry;
    std::vector<std::string> comments;
};

class sse_client {
  public:
    // Connects to 127.0.0.1:`port` (with SO_RCVBUF `receive_buffer` when non-zero) and sends
    // GET `target` with Accept: text/event-stream and `headers`.
    sse_client(
        std::uint16_t port,
        const std::string& target,
        const std::vector<std::pair<std::string, std::string>>& headers = {},
        int receive_buffer = 0
    );
    ~sse_client();
    sse_client(const sse_client&) = delete;
    sse_client& operator=(const sse_client&) = delete;

    // The response head's status and its lower-cased header lines ("content-type: text/event-stream").
    unsigned status = 0;
    std::string head;
    // Reads the head (within `wait`); throws if none comes.
    void read_head(std::chrono::milliseconds wait = std::chrono::milliseconds(3000));
    // Reads the head and, after a 200, the retry hint the server writes once the stream has subscribed:
    // an event published after this returns is this stream's to see. False when no hint came in `wait`.
    bool read_head_until_following(std::chrono::milliseconds wait = std::chrono::milliseconds(3000));
    // After a non-200 head: the body (up to the connection's end or `wait`).
    std::string rest(std::chrono::milliseconds wait = std::chrono::milliseconds(2000));

    // The next block, within `wait`; nullopt when the server closed or nothing came in time.
    std::optional<sse_block> next_block(std::chrono::milliseconds wait = std::chrono::milliseconds(3000));
    // The next block that is an event (has `event:` or `data:`), skipping retry hints and comments.
    std::optional<sse_block> next_event(std::chrono::milliseconds wait = std::chrono::milliseconds(3000));
    // Whether the server closes the stream within `wait` (reading and dropping what comes meanwhile into
    // `dropped`).
    bool closed_within(std::chrono::milliseconds wait, std::string* dropped = nullptr);
    // Every byte that arrives within `wait` or until the server closes.
    std::string drain(std::chrono::milliseconds wait);
    // Whether the server has closed the connection (known after a read saw the end).
    bool server_closed() const { return closed_; }
    // Closes our side now.
    void close();

  private:
    // Reads more into buffer_ until `deadline`; false on timeout or end of stream.
    bool read_more(std::chrono::steady_clock::time_point deadline);
    int fd_ = -1;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace storefront::test
