// The change feed's load driver for bench/run_events.sh (issue 43): holds N server-sent-event subscribers
// from one process (one thread, epoll, non-blocking sockets: a few hundred bytes per subscriber), waits
// until storefront's /metrics counts them all, then makes spaced product creates on one keep-alive
// connection and measures, per subscriber and event, the receipt time against the time the write was sent
// (an upper bound of the delivery latency) and the time its 201 answer arrived (the commit acknowledged: a
// lower bound, negative when the event overtook the answer).
//
//   sse_latency --port P --subscribers N [--writes W] [--interval-ms MS] [--rounds R] [--hold | --stall]
//
// The admin's bearer token comes from the environment variable BENCH_TOKEN (never the command line).
// Without --hold: R rounds of W writes on the same N subscribers, one line per round on stdout:
//   RESULT round=1 subscribers=N writes=W expected=.. received=.. missing=.. p50_ack_us=.. p99_ack_us=..
//          max_ack_us=.. p50_sent_us=.. p99_sent_us=.. max_sent_us=.. write_p50_us=.. connect_ms=..
// With --hold: connects, prints "READY connect_ms=..", and reads (dropping the bytes) until SIGTERM/SIGINT.
// With --stall: the same, but never reads again once every stream has its head (subscribers whose client
// stopped reading: the worst case a client can send the feed), on sockets with the smallest receive buffer
// the kernel allows, so the server's send side fills after a few events instead of megabytes.
// Raises its RLIMIT_NOFILE soft limit to the hard limit and fails clearly when that is too low for N.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <string>
#include <string_view>
#include <time.h>
#include <unordered_map>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

volatile std::sig_atomic_t stop_requested = 0;

std::int64_t now_us() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "sse_latency: %s\n", what.c_str());
    std::exit(1);
}

struct options {
    int port = 0;
    int subscribers = 100;
    int writes = 30;
    int interval_ms = 100;
    int rounds = 1;
    bool hold = false;
    bool stall = false;  // hold without reading
};

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&] {
            if (i + 1 >= argc) {
                fail("missing value after " + std::string(a));
            }
            return std::atoi(argv[++i]);
        };
        if (a == "--port") {
            o.port = value();
        } else if (a == "--subscribers") {
            o.subscribers = value();
        } else if (a == "--writes") {
            o.writes = value();
        } else if (a == "--interval-ms") {
            o.interval_ms = value();
        } else if (a == "--rounds") {
            o.rounds = value();
        } else if (a == "--hold") {
            o.hold = true;
        } else if (a == "--stall") {
            o.hold = true;
            o.stall = true;
        } else {
            fail("unknown argument " + std::string(a));
        }
    }
    if (o.port <= 0 || o.subscribers <= 0 || o.writes <= 0 || o.rounds <= 0) {
        fail(
            "usage: sse_latency --port P --subscribers N [--writes W] [--interval-ms MS] [--rounds R] "
            "[--hold | --stall]"
        );
    }
    return o;
}

// Enough descriptors for every subscriber, the writer and a few spare.
void raise_fd_limit(int subscribers) {
    rlimit lim{};
    ::getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
    if (lim.rlim_cur < static_cast<rlim_t>(subscribers) + 64) {
        fail(
            "RLIMIT_NOFILE hard limit " + std::to_string(lim.rlim_max) + " is below " +
            std::to_string(subscribers + 64) + " (raise it: ulimit -Hn, limits.conf)"
        );
    }
}

// `small_window`: the smallest receive buffer (set before connecting, so the window is small from the start).
int connect_nonblocking(int port, bool small_window = false) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        fail(std::string("socket: ") + std::strerror(errno));
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (small_window) {
        const int smallest = 1;  // the kernel raises it to its minimum
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &smallest, sizeof smallest);
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS) {
        fail(std::string("connect: ") + std::strerror(errno));
    }
    return fd;
}

// Writes all of `bytes` to a fresh socket (a request of a few hundred bytes always fits its send buffer).
void send_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const auto n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            continue;
        }
        if (n <= 0) {
            fail(std::string("send: ") + std::strerror(errno));
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

// One blocking GET /metrics on its own connection; the value of the gauge `name` (-1 if absent).
double scrape(int port, const std::string& name) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    // A server that takes no further connection (every slot held by a stream) must fail the run, not hang it.
    const timeval five_s{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &five_s, sizeof five_s);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &five_s, sizeof five_s);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        fail(std::string("connect for /metrics: ") + std::strerror(errno));
    }
    send_all(fd, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    std::string body;
    char chunk[16384];
    for (;;) {
        const auto n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) {
            break;
        }
        body.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (body.empty()) {
        fail("GET /metrics got no answer within 5 s (is --max-connections above the number of subscribers?)");
    }
    const std::string needle = "\n" + name + " ";
    const auto at = body.find(needle);
    return at == std::string::npos ? -1 : std::atof(body.c_str() + at + needle.size());
}

struct subscriber {
    int fd = -1;
    bool connected = false;  // the request is sent
    bool ready = false;      // the 200 head and the first block (the retry hint) arrived
    std::string buffer;      // bytes not yet parsed into whole blocks
};

// A product id in an event's data: `"data":{"id":N` (the resource as GET shows it).
std::int64_t product_id_of(std::string_view block) {
    constexpr std::string_view key = "\"data\":{\"id\":";
    const auto at = block.find(key);
    return at == std::string_view::npos ? -1
                                        : std::atoll(std::string(block.substr(at + key.size(), 20)).c_str());
}

struct receipt {
    std::int64_t product;
    std::int64_t at_us;
};

class driver {
  public:
    explicit driver(const options& o) : o_(o), subs_(static_cast<std::size_t>(o.subscribers)) {
        epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) {
            fail("epoll_create1");
        }
        const char* t = std::getenv("BENCH_TOKEN");
        token_ = t != nullptr ? t : "";
    }

    // Opens every subscriber (at most `window` handshakes in flight, so the listen backlog never
    // overflows into SYN retries), until each has its head and retry hint; then waits for /metrics to count
    // them. Answers the time taken in ms.
    std::int64_t connect_all() {
        const auto started = now_us();
        constexpr int window = 256;
        std::size_t next = 0;
        int pending = 0;
        int ready = 0;
        while (ready < o_.subscribers) {
            if (stop_requested) {
                std::exit(1);
            }
            while (pending < window && next < subs_.size()) {
                auto& s = subs_[next];
                s.fd = connect_nonblocking(o_.port, o_.stall);
                epoll_event ev{};
                ev.events = EPOLLIN | EPOLLOUT;
                ev.data.u64 = next;
                ::epoll_ctl(epoll_, EPOLL_CTL_ADD, s.fd, &ev);
                ++next;
                ++pending;
            }
            if (now_us() - started > 120'000'000) {
                fail(
                    "only " + std::to_string(ready) + " of " + std::to_string(o_.subscribers) +
                    " subscribers connected within 120 s"
                );
            }
            const int n = ::epoll_wait(epoll_, events_, max_events, 1000);
            for (int i = 0; i < n; ++i) {
                const auto index = events_[i].data.u64;
                auto& s = subs_[index];
                if (!s.connected && (events_[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
                    if (err != 0) {
                        fail("subscriber connect: " + std::string(std::strerror(err)));
                    }
                    send_all(
                        s.fd,
                        "GET /api/v1/events?types=product.created HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Accept: text/event-stream\r\n\r\n"
                    );
                    s.connected = true;
                    epoll_event ev{};
                    ev.events = EPOLLIN;
                    ev.data.u64 = index;
                    ::epoll_ctl(epoll_, EPOLL_CTL_MOD, s.fd, &ev);
                }
                if ((events_[i].events & (EPOLLIN | EPOLLHUP)) && s.ready) {
                    if (!read_into(s)) {
                        fail(
                            "the server closed subscriber " + std::to_string(index) +
                            " while others connected"
                        );
                    }
                } else if (events_[i].events & (EPOLLIN | EPOLLHUP)) {
                    if (!read_into(s)) {
                        fail(
                            "subscriber " + std::to_string(index) + " was closed: " + s.buffer.substr(0, 300)
                        );
                    }
                    const auto head_end = s.buffer.find("\r\n\r\n");
                    if (head_end == std::string::npos) {
                        continue;
                    }
                    if (s.buffer.compare(0, 12, "HTTP/1.1 200") != 0) {
                        fail("subscriber " + std::to_string(index) + " got: " + s.buffer.substr(0, 300));
                    }
                    const auto first = s.buffer.find("\n\n", head_end + 4);
                    if (first == std::string::npos) {
                        continue;
                    }
                    s.buffer.erase(0, first + 2);
                    s.ready = true;
                    ++ready;
                    --pending;
                }
            }
        }
        // The server counts a stream once it has subscribed it; wait for all (the head may come first).
        while (scrape(o_.port, "storefront_event_subscribers") < o_.subscribers) {
            if (now_us() - started > 150'000'000) {
                fail("/metrics never counted " + std::to_string(o_.subscribers) + " subscribers");
            }
            drain(100);
        }
        return (now_us() - started) / 1000;
    }

    // Reads whatever arrives for `ms` milliseconds (the hold mode's loop, and idle waits).
    void drain(int ms) {
        const auto until = now_us() + ms * 1000LL;
        while (!stop_requested && now_us() < until) {
            poll_once(static_cast<int>((until - now_us() + 999) / 1000));
        }
    }

    void hold() {
        while (!stop_requested) {
            if (o_.stall) {
                ::poll(nullptr, 0, 200);  // no reads; a signal ends the loop
            } else {
                poll_once(1000);
            }
        }
    }

    // One round: W creates, `interval_ms` apart (or as soon as the previous answer came when slower), then
    // waits up to 10 s after the last answer for every subscriber's copy of every event.
    void round(int number, std::int64_t connect_ms) {
        receipts_.clear();
        receipts_.reserve(static_cast<std::size_t>(o_.subscribers) * static_cast<std::size_t>(o_.writes));
        std::vector<std::int64_t> sent(static_cast<std::size_t>(o_.writes));
        std::vector<std::int64_t> acked(static_cast<std::size_t>(o_.writes));
        std::unordered_map<std::int64_t, int> write_of;
        const std::size_t expected =
            static_cast<std::size_t>(o_.subscribers) * static_cast<std::size_t>(o_.writes);
        std::int64_t next_at = now_us();
        for (int w = 0; w < o_.writes; ++w) {
            while (now_us() < next_at) {
                poll_once(static_cast<int>((next_at - now_us() + 999) / 1000));
            }
            const auto [product, t_sent, t_ack] = create(number, w);
            sent[static_cast<std::size_t>(w)] = t_sent;
            acked[static_cast<std::size_t>(w)] = t_ack;
            write_of[product] = w;
            next_at = t_sent + o_.interval_ms * 1000LL;
        }
        const auto give_up = now_us() + 10'000'000;
        while (receipts_.size() < expected && now_us() < give_up) {
            poll_once(100);
        }
        std::vector<std::int64_t> from_ack;
        std::vector<std::int64_t> from_sent;
        std::vector<std::int64_t> write_us;
        for (int w = 0; w < o_.writes; ++w) {
            write_us.push_back(acked[static_cast<std::size_t>(w)] - sent[static_cast<std::size_t>(w)]);
        }
        std::size_t matched = 0;
        for (const auto& r : receipts_) {
            const auto it = write_of.find(r.product);
            if (it == write_of.end()) {
                continue;  // another client's create (nothing else writes during a run)
            }
            ++matched;
            from_ack.push_back(r.at_us - acked[static_cast<std::size_t>(it->second)]);
            from_sent.push_back(r.at_us - sent[static_cast<std::size_t>(it->second)]);
        }
        std::printf(
            "RESULT round=%d subscribers=%d writes=%d expected=%zu received=%zu missing=%zu p50_ack_us=%lld "
            "p99_ack_us=%lld max_ack_us=%lld p50_sent_us=%lld p99_sent_us=%lld max_sent_us=%lld "
            "write_p50_us=%lld write_max_us=%lld connect_ms=%lld\n",
            number,
            o_.subscribers,
            o_.writes,
            expected,
            matched,
            expected - matched,
            pct(from_ack, 50),
            pct(from_ack, 99),
            pct(from_ack, 100),
            pct(from_sent, 50),
            pct(from_sent, 99),
            pct(from_sent, 100),
            pct(write_us, 50),
            pct(write_us, 100),
            static_cast<long long>(connect_ms)
        );
        std::fflush(stdout);
    }

  private:
    static constexpr int max_events = 1024;

    // The nearest-rank percentile `p` of `v` (sorts it); 0 when empty.
    static long long pct(std::vector<std::int64_t>& v, int p) {
        if (v.empty()) {
            return 0;
        }
        std::sort(v.begin(), v.end());
        const auto rank = std::max<std::size_t>(1, (v.size() * static_cast<std::size_t>(p) + 99) / 100);
        return static_cast<long long>(v[std::min(v.size(), rank) - 1]);
    }

    // Reads what is there; false once the server closed the connection. A read that does not fill the
    // chunk took everything: no second recv to hear EAGAIN (the epoll is level-triggered, so anything that
    // arrives later is reported again): one recv per event and subscriber instead of two, on the same two
    // cores as the server it measures.
    bool read_into(subscriber& s) {
        for (;;) {
            const auto n = ::recv(s.fd, chunk_, sizeof chunk_, 0);
            if (n > 0) {
                s.buffer.append(chunk_, static_cast<std::size_t>(n));
                if (static_cast<std::size_t>(n) < sizeof chunk_) {
                    return true;
                }
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                return false;
            }
            return true;
        }
    }

    // Waits up to `timeout_ms` for readable subscribers; every complete event block becomes a receipt
    // stamped with the time its bytes were read.
    void poll_once(int timeout_ms) {
        const int n = ::epoll_wait(epoll_, events_, max_events, std::max(0, timeout_ms));
        for (int i = 0; i < n; ++i) {
            if (events_[i].data.u64 == writer_slot) {
                continue;  // the writer's answer: create() reads it
            }
            auto& s = subs_[events_[i].data.u64];
            if (!read_into(s)) {
                fail("the server closed a subscriber's stream: " + s.buffer.substr(0, 200));
            }
            const auto at = now_us();
            std::size_t start = 0;
            for (auto end = s.buffer.find("\n\n"); end != std::string::npos;
                 end = s.buffer.find("\n\n", start)) {
                const std::string_view block(s.buffer.data() + start, end - start);
                if (block.find("event: product.created") != std::string_view::npos) {
                    receipts_.push_back({product_id_of(block), at});
                }
                start = end + 2;
            }
            s.buffer.erase(0, start);
        }
    }

    struct write_times {
        std::int64_t product;
        std::int64_t sent_us;
        std::int64_t acked_us;
    };

    // One POST /api/v1/products on the writer's keep-alive connection, reading subscribers while its answer
    // is awaited (their receipts must be stamped when they arrive, not after the answer).
    write_times create(int round_number, int w) {
        if (writer_ < 0) {
            writer_ = connect_nonblocking(o_.port);
            pollfd p{writer_, POLLOUT, 0};
            if (::poll(&p, 1, 5000) != 1) {
                fail("the writer could not connect");
            }
            epoll_event ev{};
            ev.events = EPOLLIN;
            ev.data.u64 = writer_slot;
            ::epoll_ctl(epoll_, EPOLL_CTL_ADD, writer_, &ev);
        }
        const std::string body = "{\"title\":\"Bench Feed " + std::to_string(::getpid()) + "-" +
                                 std::to_string(run_tag_) + " r" + std::to_string(round_number) + " w" +
                                 std::to_string(w) +
                                 "\",\"price\":12,\"description\":\"d\",\"categoryId\":1,"
                                 "\"images\":[\"https://placehold.co/600x400\"]}";
        std::string request =
            "POST /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
        if (!token_.empty()) {
            request += "Authorization: Bearer " + token_ + "\r\n";
        }
        request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        const auto sent = now_us();
        send_all(writer_, request);
        std::string answer;
        for (;;) {
            char buf[8192];
            const auto n = ::recv(writer_, buf, sizeof buf, 0);
            if (n > 0) {
                answer.append(buf, static_cast<std::size_t>(n));
                const auto head_end = answer.find("\r\n\r\n");
                if (head_end != std::string::npos) {
                    const auto cl = find_header(answer.substr(0, head_end), "content-length:");
                    if (answer.size() >= head_end + 4 + cl) {
                        const auto acked = now_us();
                        if (answer.compare(0, 12, "HTTP/1.1 201") != 0) {
                            fail("the create answered: " + answer.substr(0, 300));
                        }
                        const auto id = std::atoll(answer.c_str() + head_end + 4 + std::strlen("{\"id\":"));
                        return {id, sent, acked};
                    }
                }
                continue;
            }
            if (n == 0) {
                fail("the server closed the writer's connection");
            }
            if (errno != EAGAIN && errno != EINTR) {
                fail(std::string("writer recv: ") + std::strerror(errno));
            }
            if (now_us() - sent > 10'000'000 || stop_requested) {
                fail("the create got no answer within 10 s");
            }
            // Nothing yet: read subscribers meanwhile; the writer's answer ends the wait (it is in the set).
            poll_once(100);
        }
    }

    static std::size_t find_header(const std::string& head, const std::string& lower_name) {
        std::string lower = head;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        const auto at = lower.find(lower_name);
        return at == std::string::npos ? 0
                                       : std::strtoull(lower.c_str() + at + lower_name.size(), nullptr, 10);
    }

    static constexpr std::uint64_t writer_slot = ~std::uint64_t{0};

    options o_;
    std::vector<subscriber> subs_;
    int epoll_ = -1;
    int writer_ = -1;
    std::string token_;
    std::int64_t run_tag_ =
        ::time(nullptr);  // titles are unique per store: a rerun on the same file must not clash
    epoll_event events_[max_events]{};
    char chunk_[65536]{};
    std::vector<receipt> receipts_;
};

}  // namespace

int main(int argc, char** argv) {
    const auto o = parse(argc, argv);
    raise_fd_limit(o.subscribers);
    std::signal(SIGTERM, [](int) { stop_requested = 1; });
    std::signal(SIGINT, [](int) { stop_requested = 1; });
    std::signal(SIGPIPE, SIG_IGN);
    driver d(o);
    const auto connect_ms = d.connect_all();
    if (o.hold) {
        std::printf("READY connect_ms=%lld\n", static_cast<long long>(connect_ms));
        std::fflush(stdout);
        d.hold();
        return 0;
    }
    for (int r = 1; r <= o.rounds; ++r) {
        d.round(r, connect_ms);
    }
    return 0;
}
