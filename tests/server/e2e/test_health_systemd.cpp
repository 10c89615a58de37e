// The real binary under a fake systemd: a datagram socket passed as NOTIFY_SOCKET receives READY=1 (only
// once the port accepts), repeated WATCHDOG=1 and, on SIGTERM, STOPPING=1 while the instance drains
// (/readyz 503, the API still 200, keep-alive connections told to close) before exiting 0. Also the drain
// cut short by a second signal, --instance, the trusted-proxy client address in the access log, and
// health probes kept out of it.

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <sys/un.h>

#include "common/child_process.hpp"
#include "http_client.hpp"

using namespace storefront::test;
using steady = std::chrono::steady_clock;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace health_systemd_file {
namespace {

// What systemd's notify socket would receive: one datagram per sd_notify call.
class notify_socket {
  public:
    explicit notify_socket(const std::filesystem::path& path) : path_(path.string()) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        BOOST_TEST_REQUIRE(fd_ >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        BOOST_TEST_REQUIRE(path_.size() < sizeof addr.sun_path);
        path_.copy(addr.sun_path, path_.size());
        BOOST_TEST_REQUIRE(::bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
    }
    ~notify_socket() { ::close(fd_); }
    notify_socket(const notify_socket&) = delete;
    notify_socket& operator=(const notify_socket&) = delete;

    [[nodiscard]] std::string env() const { return "NOTIFY_SOCKET=" + path_; }

    // The next datagram containing `needle` within `bound` (others are kept in `seen`).
    std::optional<std::string> wait_for(const std::string& needle, std::chrono::milliseconds bound) {
        const auto deadline = steady::now() + bound;
        while (steady::now() < deadline) {
            pollfd p{fd_, POLLIN, 0};
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now());
            if (::poll(&p, 1, static_cast<int>(std::max<long long>(1, left.count()))) <= 0) {
                continue;
            }
            char buf[4096];
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) {
                continue;
            }
            std::string message(buf, static_cast<std::size_t>(n));
            seen.push_back(message);
            if (message.find(needle) != std::string::npos) {
                return message;
            }
        }
        return std::nullopt;
    }

    std::vector<std::string> seen;

  private:
    std::string path_;
    int fd_ = -1;
};

bool accepts(std::uint16_t port) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket s(io);
    boost::system::error_code ec;
    s.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
    return !ec;
}

std::string status_of(const http_reply& reply) {
    return std::string(reply.json().at("status").as_string());
}

// The request lines of the access log whose path is `path`.
std::vector<boost::json::value> request_lines(const std::string& output, const std::string& path) {
    std::vector<boost::json::value> out;
    std::size_t at = 0;
    while (at < output.size()) {
        const std::size_t end = output.find('\n', at);
        const std::string line = output.substr(at, end - at);
        at = end == std::string::npos ? output.size() : end + 1;
        if (line.find("\"event\":\"request\"") == std::string::npos) {
            continue;
        }
        auto entry = boost::json::parse(line);
        if (entry.at("path").as_string() == path) {
            out.push_back(std::move(entry));
        }
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(health_systemd)

BOOST_AUTO_TEST_CASE(ready_watchdog_and_a_drain_on_sigterm_under_a_notify_socket) {
    const temp_dir dir;
    notify_socket systemd(dir.path() / "notify.sock");
    child_process server(
        {"--port",
         "0",
         "--threads",
         "2",
         "--storage",
         "memory",
         "--generated-locations",
         "1000",
         "--drain-seconds",
         "2"},
        {systemd.env(), "WATCHDOG_USEC=400000"}
    );
    const auto ready = systemd.wait_for("READY=1", std::chrono::milliseconds(30000));
    BOOST_TEST_REQUIRE(ready.has_value(), server.output());
    // The listening line was written before READY=1, and the port accepts by then.
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(2));
    BOOST_TEST_REQUIRE(line.has_value(), server.output());
    const auto port = port_of(*line);
    BOOST_TEST(accepts(port));

    // WATCHDOG_USEC=0.4 s: a ping every 0.2 s while the I/O threads run.
    int pings = 0;
    const auto watch_until = steady::now() + std::chrono::milliseconds(1500);
    while (steady::now() < watch_until && systemd.wait_for("WATCHDOG=1", std::chrono::milliseconds(500))) {
        ++pings;
    }
    BOOST_TEST(pings >= 3);

    const auto health = get(port, "/healthz");
    BOOST_TEST(health.status == 200u);
    const auto readiness = get(port, "/readyz");
    BOOST_TEST(readiness.status == 200u, readiness.body);
    BOOST_TEST(status_of(readiness) == "ready");
    keep_alive_connection kept(port);
    BOOST_TEST(!kept.get("/api/v1/products/1").connection_closed);

    const auto signalled = steady::now();
    server.signal(SIGTERM);
    BOOST_TEST_REQUIRE(systemd.wait_for("STOPPING=1", std::chrono::milliseconds(2000)).has_value());
    const auto draining = get(port, "/readyz");
    BOOST_TEST(draining.status == 503u);
    BOOST_TEST(status_of(draining) == "draining");
    BOOST_TEST(!draining.header("retry-after").empty());
    BOOST_TEST(get(port, "/api/v1/products").status == 200u);  // still serving during the drain
    const auto last = kept.get("/api/v1/products/1");
    BOOST_TEST(last.status == 200u);
    BOOST_TEST(last.header("connection") == "close");
    BOOST_TEST(kept.closed_by_server(std::chrono::milliseconds(2000)));
    BOOST_TEST((steady::now() - signalled < std::chrono::milliseconds(1800))
    );  // all of that within the drain

    const auto code = server.wait_exit(std::chrono::seconds(10));
    const auto took = steady::now() - signalled;
    BOOST_TEST_REQUIRE(code.has_value());
    BOOST_TEST(*code == 0);
    BOOST_TEST(took >= std::chrono::milliseconds(1900));  // the whole 2 s drain
    BOOST_TEST(took < std::chrono::seconds(6));
    BOOST_TEST(server.wait_for_line("\"stopped\"", std::chrono::seconds(2)).has_value());

    // Probes are not access-logged; API requests are, with the TCP peer as client (no trusted proxies).
    BOOST_TEST(request_lines(server.output(), "/healthz").empty());
    BOOST_TEST(request_lines(server.output(), "/readyz").empty());
    const auto products = request_lines(server.output(), "/api/v1/products");
    BOOST_TEST_REQUIRE(!products.empty(), server.output());
    BOOST_TEST(products.front().at("client").as_string() == "127.0.0.1");
}

BOOST_AUTO_TEST_CASE(a_second_signal_cuts_the_drain_short_and_readyz_is_ready_on_sqlite) {
    const temp_dir dir;
    notify_socket systemd(dir.path() / "notify.sock");
    child_process server(
        {"--port",
         "0",
         "--threads",
         "1",
         "--storage",
         "sqlite:" + (dir.path() / "s.db").string(),
         "--generated-locations",
         "1000",
         "--drain-seconds",
         "60",
         "--access-log-probes",
         "true"},
        {systemd.env()}
    );
    BOOST_TEST_REQUIRE(
        systemd.wait_for("READY=1", std::chrono::milliseconds(30000)).has_value(), server.output()
    );
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(2));
    BOOST_TEST_REQUIRE(line.has_value());
    const auto port = port_of(*line);
    const auto readiness = get(port, "/readyz");
    BOOST_TEST(readiness.status == 200u, readiness.body);
    // Without --trusted-proxies a forwarded-for header is ignored.
    const auto spoofed = send_request(
        port, {.target = "/api/v1/categories", .headers = {{"X-Forwarded-For", "203.0.113.50"}}}
    );
    BOOST_TEST(spoofed.status == 200u);

    const auto signalled = steady::now();
    server.signal(SIGTERM);
    BOOST_TEST_REQUIRE(server.wait_for_line("\"draining\"", std::chrono::seconds(5)).has_value());
    BOOST_TEST(get(port, "/readyz").status == 503u);
    server.signal(SIGINT);
    const auto code = server.wait_exit(std::chrono::seconds(10));
    BOOST_TEST_REQUIRE(code.has_value());
    BOOST_TEST(*code == 0);
    BOOST_TEST((steady::now() - signalled < std::chrono::seconds(10)));  // far from the 60 s drain
    BOOST_TEST(server.wait_for_line("\"drain_cut_short\":\"true\"", std::chrono::seconds(1)).has_value());
    // Request lines may follow the main thread's "stopping" line; all are written before "stopped".
    BOOST_TEST(server.wait_for_line("\"stopped\"", std::chrono::seconds(2)).has_value());
    BOOST_TEST(!systemd.wait_for("WATCHDOG=1", std::chrono::milliseconds(1)).has_value());  // none asked

    // --access-log-probes true: probes are logged too.
    BOOST_TEST(request_lines(server.output(), "/readyz").size() == 2u);
    const auto categories = request_lines(server.output(), "/api/v1/categories");
    BOOST_TEST_REQUIRE(categories.size() == 1u);
    BOOST_TEST(categories.front().at("client").as_string() == "127.0.0.1");
    BOOST_TEST(server.output().find("203.0.113.50") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(trusted_proxies_name_the_client_and_bad_headers_are_never_logged_raw) {
    child_process server(
        {"--port", "0", "--threads", "1", "--storage", "memory", "--generated-locations", "1000"},
        {"STOREFRONT_TRUSTED_PROXIES=10.0.0.0/8, 127.0.0.1"}
    );
    const auto port = server.wait_listening(std::chrono::seconds(30));
    const auto with = [port](const std::string& target, const char* header, const char* value) {
        return send_request(port, {.target = target, .headers = {{header, value}}}).status;
    };
    BOOST_TEST(with("/api/v1/products/1", "X-Forwarded-For", "198.51.100.1, 203.0.113.7, 10.9.9.9") == 200u);
    BOOST_TEST(with("/api/v1/products/2", "Forwarded", "for=\"[2001:db8::7]:4711\";proto=https") == 200u);
    BOOST_TEST(with("/api/v1/products/3", "X-Forwarded-For", "<script>alert(1)</script>") == 200u);
    BOOST_TEST(with("/api/v1/products/4", "Forwarded", "for=\"\\\"},{\\\"x") == 200u);
    BOOST_TEST(with("/api/v1/products/5", "X-Forwarded-For", std::string(5000, '9').c_str()) == 200u);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(10)).value_or(-1) == 0);
    BOOST_TEST(server.wait_for_line("\"stopped\"", std::chrono::seconds(2)).has_value());

    const auto client_of = [&](const char* path) {
        const auto lines = request_lines(server.output(), path);
        BOOST_TEST_REQUIRE(lines.size() == 1u, path);
        return std::string(lines.front().at("client").as_string());
    };
    BOOST_TEST(client_of("/api/v1/products/1") == "203.0.113.7");  // right-most untrusted hop
    BOOST_TEST(client_of("/api/v1/products/2") == "2001:db8::7");
    BOOST_TEST(client_of("/api/v1/products/3") == "127.0.0.1");  // unparsable: the trusted peer
    BOOST_TEST(client_of("/api/v1/products/4") == "127.0.0.1");
    BOOST_TEST(client_of("/api/v1/products/5") == "127.0.0.1");
    BOOST_TEST(server.output().find("script") == std::string::npos);
    BOOST_TEST(server.output().find("198.51.100.1") == std::string::npos);  // the spoofable left part
}

BOOST_AUTO_TEST_CASE(instance_shifts_the_port_and_tags_every_log_line) {
    const std::uint16_t target = free_port();
    BOOST_TEST_REQUIRE(target > 3u);
    child_process server(
        {"--port",
         std::to_string(target - 3),
         "--threads",
         "1",
         "--storage",
         "memory",
         "--generated-locations",
         "1000"},
        {"STOREFRONT_INSTANCE=3"}
    );
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(30));
    BOOST_TEST_REQUIRE(line.has_value(), server.output());
    BOOST_TEST(port_of(*line) == target);
    BOOST_TEST(boost::json::parse(*line).at("instance").as_int64() == 3);
    BOOST_TEST(get(target, "/healthz").status == 200u);
    BOOST_TEST(get(target, "/api/v1/categories/1").status == 200u);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(10)).value_or(-1) == 0);
    BOOST_TEST(server.wait_for_line("\"stopped\"", std::chrono::seconds(2)).has_value());
    const auto requests = request_lines(server.output(), "/api/v1/categories/1");
    BOOST_TEST_REQUIRE(requests.size() == 1u);
    BOOST_TEST(requests.front().at("instance").as_int64() == 3);
}

BOOST_AUTO_TEST_CASE(bad_drain_proxy_and_instance_flags_are_refused) {
    const std::vector<std::vector<std::string>> bad{
        {"--drain-seconds", "-1"},
        {"--drain-seconds", "abc"},
        {"--trusted-proxies", "10.0.0.0/33"},
        {"--trusted-proxies", "proxy.example.com"},
        {"--instance", "-2"},
        {"--instance", "5000"},
        {"--port", "65535", "--instance", "1"},
    };
    for (const auto& args : bad) {
        BOOST_TEST_CONTEXT(args.front() << " " << args.at(1)) {
            child_process p(args);
            BOOST_TEST(p.wait_exit(std::chrono::seconds(5)).value_or(-1) == 2);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace health_systemd_file
