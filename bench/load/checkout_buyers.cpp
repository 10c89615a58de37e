// The checkout benchmark's buyers for bench/run_checkout.sh --driver buyers (issue 46): N buyers from one
// thread (epoll, non-blocking sockets, one keep-alive connection each), each buying in a loop as
// bench/load/checkout.lua does under wrk: add one unit to the cart (POST /api/v1/cart/items) → checkout
// (POST /api/v1/orders) → pay with 4242424242424242 (POST /api/v1/orders/{id}/payments). A non-201 is
// counted and the step tried again (a 409 starts over at the cart). wrk needs one thread per buyer for a
// step to follow its own buyer's answer (its script hears a response without its connection) and runs Lua
// per request: on 2 cores its 64 threads took a third of the machine (perf, 2026-11-29), which a driver
// leaves the server here.
//
//   checkout_buyers --port P --tokens FILE --products FILE --duration SECONDS [--timeout-ms MS]
//
// FILE: one line per buyer (buyer N: line N of both; the tokens file holds bearer tokens). Prints one line,
// the fields wrk's checkout.lua prints:
//   RESULT requests=.. bytes=.. duration_us=.. p50_us=.. p99_us=.. non2xx=.. socket_errors=.. created=..
//          connect_errors=.. read_errors=.. write_errors=.. timeouts=..
// A connection the server closes (or that fails) is opened again and its step sent again (socket_errors).
// Exits 1 on a malformed answer or when no request was answered.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

using clock_type = std::chrono::steady_clock;

struct buyer {
    std::string authorization;  // "Authorization: Bearer …\r\n"
    std::string product;
    int fd = -1;
    int step = 1;  // 1 add to cart, 2 checkout, 3 pay
    std::string order_id;
    std::string out;  // the request not yet written
    std::size_t written = 0;
    std::string in;  // the answer read so far
    clock_type::time_point sent_at;
};

struct totals {
    std::uint64_t requests = 0, bytes = 0, non2xx = 0, created = 0;
    std::uint64_t connect_errors = 0, read_errors = 0, write_errors = 0, timeouts = 0;
    std::vector<std::uint32_t> latencies_us;
};

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "checkout_buyers: %s\n", what.c_str());
    std::exit(1);
}

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        fail("cannot read " + path);
    }
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            out.push_back(line);
        }
    }
    return out;
}

constexpr std::string_view address_body =
    R"({"shippingAddress":{"name":"Bench Buyer","line1":"1 Main St","city":"Springfield",)"
    R"("postalCode":"12345","country":"US"}})";
constexpr std::string_view card_body =
    R"({"card":{"number":"4242424242424242","expMonth":12,"expYear":2040,"cvc":"123"}})";

std::string request_of(const buyer& b, const std::string& host) {
    std::string target, body;
    if (b.step == 1) {
        target = "/api/v1/cart/items";
        body = R"({"productId":)" + b.product + R"(,"quantity":1})";
    } else if (b.step == 2) {
        target = "/api/v1/orders";
        body = address_body;
    } else {
        target = "/api/v1/orders/" + b.order_id + "/payments";
        body = card_body;
    }
    return "POST " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + b.authorization +
           "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
           body;
}

// A case-insensitive search for a header's value in `head` (the status line and fields, without the blank
// line); npos when absent.
std::size_t header_value(std::string_view head, std::string_view name) {
    for (std::size_t at = head.find("\r\n"); at != std::string_view::npos; at = head.find("\r\n", at + 2)) {
        const auto line = head.substr(at + 2, head.find("\r\n", at + 2) - (at + 2));
        if (line.size() > name.size() && line[name.size()] == ':' &&
            std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) ==
                       std::tolower(static_cast<unsigned char>(b));
            })) {
            auto v = at + 2 + name.size() + 1;
            while (v < head.size() && head[v] == ' ') {
                ++v;
            }
            return v;
        }
    }
    return std::string_view::npos;
}

class driver {
  public:
    driver(int port, std::vector<buyer> buyers) : port_(port), host_("127.0.0.1:" + std::to_string(port)) {
        buyers_ = std::move(buyers);
        epoll_ = epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) {
            fail("epoll_create1 failed");
        }
    }

    totals run(std::chrono::milliseconds duration, std::chrono::milliseconds timeout) {
        for (std::size_t i = 0; i < buyers_.size(); ++i) {
            open(i);
        }
        const auto start = clock_type::now();
        const auto end = start + duration;
        std::vector<epoll_event> events(buyers_.size());
        while (clock_type::now() < end) {
            const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 10);
            const auto now = clock_type::now();
            for (int e = 0; e < n; ++e) {
                const auto i = static_cast<std::size_t>(events[e].data.u64);
                if (events[e].events & (EPOLLERR | EPOLLHUP)) {
                    reopen(i, t_.read_errors);
                    continue;
                }
                if (events[e].events & EPOLLOUT) {
                    write_some(i);
                }
                if (events[e].events & EPOLLIN) {
                    read_some(i, now < end);
                }
            }
            for (std::size_t i = 0; i < buyers_.size(); ++i) {
                if (buyers_[i].fd >= 0 && now - buyers_[i].sent_at > timeout) {
                    reopen(i, t_.timeouts);
                }
            }
        }
        t_.duration = clock_type::now() - start;
        return t_;
    }

    [[nodiscard]] std::chrono::microseconds duration() const {
        return std::chrono::duration_cast<std::chrono::microseconds>(t_.duration);
    }

  private:
    struct run_totals : totals {
        clock_type::duration duration{};
    };

    void open(std::size_t i) {
        auto& b = buyers_[i];
        b.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (b.fd < 0) {
            fail("socket failed");
        }
        const int one = 1;
        setsockopt(b.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(static_cast<std::uint16_t>(port_));
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(b.fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) < 0 && errno != EINPROGRESS) {
            ++t_.connect_errors;
        }
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.u64 = i;
        if (epoll_ctl(epoll_, EPOLL_CTL_ADD, b.fd, &ev) < 0) {
            fail("epoll_ctl failed");
        }
        b.in.clear();
        b.out = request_of(b, host_);
        b.written = 0;
        b.sent_at = clock_type::now();
    }

    // The connection failed or was closed: counted, opened again, the step sent again.
    void reopen(std::size_t i, std::uint64_t& counter) {
        ++counter;
        close(buyers_[i].fd);  // also leaves the epoll set
        buyers_[i].fd = -1;
        open(i);
    }

    void want_output(std::size_t i, bool on) {
        epoll_event ev{};
        ev.events = EPOLLIN | (on ? EPOLLOUT : 0u);
        ev.data.u64 = i;
        (void)epoll_ctl(epoll_, EPOLL_CTL_MOD, buyers_[i].fd, &ev);
    }

    void write_some(std::size_t i) {
        auto& b = buyers_[i];
        while (b.written < b.out.size()) {
            const auto n = send(b.fd, b.out.data() + b.written, b.out.size() - b.written, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return;  // EPOLLOUT stays on
                }
                reopen(i, t_.write_errors);
                return;
            }
            b.written += static_cast<std::size_t>(n);
        }
        want_output(i, false);
    }

    void read_some(std::size_t i, bool go_on) {
        auto& b = buyers_[i];
        char chunk[16384];
        for (;;) {
            const auto n = recv(b.fd, chunk, sizeof chunk, 0);
            if (n > 0) {
                b.in.append(chunk, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0) {
                reopen(i, t_.read_errors);
                return;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                break;
            }
            reopen(i, t_.read_errors);
            return;
        }
        const auto head_end = b.in.find("\r\n\r\n");
        if (head_end == std::string::npos) {
            return;
        }
        const std::string_view head(b.in.data(), head_end);
        if (head.size() < 12 || !head.starts_with("HTTP/1.1 ")) {
            fail("not an HTTP/1.1 answer: " + std::string(head.substr(0, 40)));
        }
        if (header_value(head, "transfer-encoding") != std::string_view::npos) {
            fail("a chunked answer (the server sends a length)");
        }
        const auto length_at = header_value(head, "content-length");
        const std::size_t length =
            length_at == std::string_view::npos ? 0 : std::strtoul(head.data() + length_at, nullptr, 10);
        if (b.in.size() < head_end + 4 + length) {
            return;  // the rest of the body is still on its way
        }
        const int status = std::atoi(head.data() + 9);
        const std::string_view body(b.in.data() + head_end + 4, length);
        const auto close_at = header_value(head, "connection");
        const bool closes = close_at != std::string_view::npos && head.substr(close_at, 5) == "close";
        answered(b, status, body, head_end + 4 + length);
        b.in.erase(0, head_end + 4 + length);
        if (!go_on) {
            close(b.fd);
            b.fd = -1;
            return;
        }
        if (closes) {
            close(b.fd);
            b.fd = -1;
            open(i);
            return;
        }
        b.out = request_of(b, host_);
        b.written = 0;
        b.sent_at = clock_type::now();
        want_output(i, true);
    }

    void answered(buyer& b, int status, std::string_view body, std::size_t bytes) {
        ++t_.requests;
        t_.bytes += bytes;
        t_.latencies_us.push_back(static_cast<std::uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - b.sent_at).count()
        ));
        if (status != 201) {
            ++t_.non2xx;
            if (status == 409) {
                b.step = 1;  // an empty cart or an order no longer payable: start over
            }
            return;
        }
        if (b.step == 1) {
            b.step = 2;
        } else if (b.step == 2) {
            constexpr std::string_view prefix = R"({"id":)";
            std::size_t end = prefix.size();
            while (end < body.size() && body[end] >= '0' && body[end] <= '9') {
                ++end;
            }
            if (!body.starts_with(prefix) || end == prefix.size()) {
                fail("an order answer without its id first: " + std::string(body.substr(0, 40)));
            }
            b.order_id = std::string(body.substr(prefix.size(), end - prefix.size()));
            b.step = 3;
        } else {
            ++t_.created;
            b.step = 1;
        }
    }

    int port_;
    std::string host_;
    std::vector<buyer> buyers_;
    int epoll_ = -1;
    run_totals t_;
};

std::uint32_t percentile(std::vector<std::uint32_t>& v, double p) {
    if (v.empty()) {
        return 0;
    }
    const auto k = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

}  // namespace

int main(int argc, char** argv) {
    int port = 0;
    long duration_s = 0, timeout_ms = 5000;
    std::string tokens_path, products_path;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string_view flag = argv[i];
        if (flag == "--port") {
            port = std::atoi(argv[i + 1]);
        } else if (flag == "--tokens") {
            tokens_path = argv[i + 1];
        } else if (flag == "--products") {
            products_path = argv[i + 1];
        } else if (flag == "--duration") {
            duration_s = std::atol(argv[i + 1]);
        } else if (flag == "--timeout-ms") {
            timeout_ms = std::atol(argv[i + 1]);
        } else {
            fail("unknown flag " + std::string(flag));
        }
    }
    if (port <= 0 || duration_s <= 0 || tokens_path.empty() || products_path.empty()) {
        fail(
            "usage: checkout_buyers --port P --tokens FILE --products FILE --duration SECONDS [--timeout-ms "
            "MS]"
        );
    }
    const auto tokens = lines_of(tokens_path);
    const auto products = lines_of(products_path);
    if (tokens.empty() || tokens.size() != products.size()) {
        fail("the tokens and products files must have the same number of lines (one per buyer)");
    }
    std::vector<buyer> buyers(tokens.size());
    for (std::size_t i = 0; i < buyers.size(); ++i) {
        buyers[i].authorization = "Authorization: Bearer " + tokens[i] + "\r\n";
        buyers[i].product = products[i];
    }
    driver d(port, std::move(buyers));
    auto t = d.run(std::chrono::seconds(duration_s), std::chrono::milliseconds(timeout_ms));
    if (t.requests == 0) {
        fail("no request was answered");
    }
    const auto socket_errors = t.connect_errors + t.read_errors + t.write_errors + t.timeouts;
    std::printf(
        "RESULT requests=%llu bytes=%llu duration_us=%lld p50_us=%u p99_us=%u non2xx=%llu socket_errors=%llu "
        "created=%llu connect_errors=%llu read_errors=%llu write_errors=%llu timeouts=%llu\n",
        static_cast<unsigned long long>(t.requests),
        static_cast<unsigned long long>(t.bytes),
        static_cast<long long>(d.duration().count()),
        percentile(t.latencies_us, 50),
        percentile(t.latencies_us, 99),
        static_cast<unsigned long long>(t.non2xx),
        static_cast<unsigned long long>(socket_errors),
        static_cast<unsigned long long>(t.created),
        static_cast<unsigned long long>(t.connect_errors),
        static_cast<unsigned long long>(t.read_errors),
        static_cast<unsigned long long>(t.write_errors),
        static_cast<unsigned long long>(t.timeouts)
    );
    return 0;
}
