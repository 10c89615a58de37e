// End-to-end tests of --rate-limit over HTTP: a client over its limit gets 429s (with Retry-After and the
// draft -07 RateLimit fields) while another client, from another loopback address or named by a trusted
// proxy, is served at the same time; probes are exempt; an untrusted X-Forwarded-For chooses nothing; off
// by default; and the real binary takes the flags and refuses bad ones.

#include <atomic>
#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;
using namespace storefront::test;

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

server::server_config limited_config(std::string_view trusted_proxies = {}) {
    auto c = test_config();
    c.storage.generated_locations = 1000;
    c.rate_limit = core::rate_limit{.per_second = 5, .burst = 5};
    if (!trusted_proxies.empty()) {
        c.proxies = server::trusted_proxies::parse(trusted_proxies);
    }
    return c;
}

// One GET on a fresh connection from `source` (a loopback address: Linux routes all of 127/8 there) to
// 127.0.0.1:port, with `Connection: close`, read to the end under a 5 s receive timeout.
http_reply request_from(
    const std::string& source,
    std::uint16_t port,
    const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.open(tcp::v4());
    socket.bind({asio::ip::make_address(source), 0});
    socket.connect({asio::ip::make_address("127.0.0.1"), port});
    const timeval timeout{.tv_sec = 5, .tv_usec = 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string bytes = "GET " + target + " HTTP/1.1\r\nHost: storefront\r\nConnection: close\r\n";
    for (const auto& [name, value] : headers) {
        bytes += name + ": " + value + "\r\n";
    }
    bytes += "\r\n";
    asio::write(socket, asio::buffer(bytes));
    std::string answer;
    boost::system::error_code ec;
    asio::read(socket, asio::dynamic_buffer(answer), ec);  // to EOF (or the receive timeout)
    // No Boost.Test assertion here: this runs on a second thread too. Status 0 tells the caller.
    auto replies = parse_responses(answer);
    if (replies.size() != 1) {
        http_reply broken;
        broken.body = answer;
        return broken;
    }
    return replies.front();
}

// The value of storefront_rate_limited_total in a scrape.
long long rate_limited_total(std::uint16_t port) {
    const std::string body = get(port, "/metrics").body;
    const std::string name = "\nstorefront_rate_limited_total ";
    const auto at = body.find(name);
    BOOST_TEST_REQUIRE(at != std::string::npos);
    return std::stoll(body.substr(at + name.size()));
}

void check_rate_limit_fields(const http_reply& r) {
    BOOST_TEST(r.header("ratelimit-policy") == "5;w=1");
    BOOST_TEST(
        std::regex_match(r.header("ratelimit"), std::regex("limit=5, remaining=[0-5], reset=[1-9][0-9]*")),
        r.header("ratelimit")
    );
}

void check_429(const http_reply& r) {
    BOOST_TEST(r.status == 429U);
    const std::string retry_after = r.header("retry-after");
    BOOST_TEST_REQUIRE(!retry_after.empty());
    BOOST_TEST(std::stoi(retry_after) >= 1);
    BOOST_TEST(r.header("ratelimit-policy") == "5;w=1");
    BOOST_TEST(std::regex_match(r.header("ratelimit"), std::regex("limit=5, remaining=0, reset=[1-9][0-9]*"))
    );
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rate_limit_e2e)

BOOST_AUTO_TEST_CASE(a_client_over_the_limit_gets_429_while_another_address_is_served) {
    running_server server(limited_config());
    const std::uint16_t port = server.port();
    const long long limited_before = rate_limited_total(port);

    // The second client, from 127.0.0.2, at the same time: its own bucket, so its 5 requests (its burst)
    // are served however the two interleave.
    std::vector<http_reply> others;
    std::thread other([&] {
        for (int i = 0; i < 5; ++i) {
            others.push_back(request_from("127.0.0.2", port, "/api/v1/categories"));
        }
    });
    keep_alive_connection first(port);
    std::vector<http_reply> replies;
    for (int i = 0; i < 20; ++i) {
        replies.push_back(first.get("/api/v1/categories"));  // a 429 keeps the connection (no body unread)
    }
    other.join();

    int served = 0;
    int refused = 0;
    for (std::size_t i = 0; i < replies.size(); ++i) {
        BOOST_TEST_CONTEXT("request " << i) {
            const auto& r = replies[i];
            if (i < 5) {
                BOOST_TEST(r.status == 200U);  // the burst
            }
            if (r.status == 200U) {
                ++served;
                check_rate_limit_fields(r);
            } else {
                ++refused;
                check_429(r);
                const auto body = r.json().as_object();
                BOOST_TEST(body.at("statusCode").as_int64() == 429);
                BOOST_TEST(body.at("error").as_string() == "Too Many Requests");
                BOOST_TEST(body.at("message").as_string().starts_with("Too many requests"));
            }
        }
    }
    // 20 requests at 5/s after a burst of 5: most are refused unless they took seconds.
    BOOST_TEST(refused >= 1);
    BOOST_TEST(served + refused == 20);
    for (const auto& r : others) {
        BOOST_TEST(r.status == 200U, r.body);
        check_rate_limit_fields(r);
    }
    BOOST_TEST(others.size() == 5U);
    BOOST_TEST(rate_limited_total(port) - limited_before == refused);
}

BOOST_AUTO_TEST_CASE(probes_and_metrics_are_exempt) {
    // One token a second: the 50 probes below must not outlast a refill, even under the sanitizers (at 5/s a
    // token came back within their 200 ms under ASan).
    auto config = limited_config();
    config.rate_limit->per_second = 1;
    running_server server(config);
    const std::uint16_t port = server.port();
    keep_alive_connection c(port);
    while (c.get("/api/v1/products?limit=1").status != 429U) {
    }
    for (const std::string target : {"/healthz", "/readyz", "/metrics", "/healthz/", "/readyz?x=1"}) {
        for (int i = 0; i < 10; ++i) {
            BOOST_TEST_CONTEXT(target << " #" << i) {
                const auto r = c.get(target);
                BOOST_TEST(r.status == 200U);
                BOOST_TEST(r.header("ratelimit").empty());
                BOOST_TEST(r.header("ratelimit-policy").empty());
            }
        }
    }
    BOOST_TEST(c.get("/api/v1/products?limit=1").status == 429U);  // the probes gave no tokens back
}

BOOST_AUTO_TEST_CASE(each_surface_answers_429_in_its_own_error_shape) {
    running_server server(limited_config());
    const std::uint16_t port = server.port();
    keep_alive_connection c(port);
    for (int i = 0; i < 5; ++i) {
        c.get("/api/v1/categories");
    }

    const auto pet = c.get("/api/v3/pet/findByStatus?status=available");
    check_429(pet);
    const auto pet_body = pet.json().as_object();
    BOOST_TEST(pet_body.size() == 2U);
    BOOST_TEST(pet_body.at("code").as_int64() == 429);
    BOOST_TEST(pet_body.at("message").as_string().starts_with("Too many requests"));

    for (const std::string target : {"/api/v1/products/1", "/docs", "/no/such/path"}) {
        BOOST_TEST_CONTEXT(target) {
            const auto r = c.get(target);
            check_429(r);
            const auto body = r.json().as_object();
            BOOST_TEST(body.size() == 3U);
            BOOST_TEST(body.at("statusCode").as_int64() == 429);
            BOOST_TEST(body.at("error").as_string() == "Too Many Requests");
        }
    }
}

// A browser app of an origin --cors-origins allows must be able to read its 429 (else it sees a CORS
// failure instead of Retry-After).
BOOST_AUTO_TEST_CASE(a_429_carries_the_allowed_origin_with_credentials) {
    auto config = limited_config();
    config.cors = server::cors_origins::parse("http://localhost:*");
    running_server server(config);
    const std::vector<std::pair<std::string, std::string>> origin{{"Origin", "http://localhost:5173"}};
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(request_from("127.0.0.5", server.port(), "/api/v1/categories", origin).status == 200U);
    }
    const auto refused = request_from("127.0.0.5", server.port(), "/api/v1/categories", origin);
    check_429(refused);
    BOOST_TEST(refused.header("access-control-allow-origin") == "http://localhost:5173");
    BOOST_TEST(refused.header("access-control-allow-credentials") == "true");
    const auto fresh = request_from("127.0.0.5", server.port(), "/api/v1/products/1", origin);
    check_429(fresh);  // not a replay of an earlier answer: the refusal on the head alone
    BOOST_TEST(fresh.header("access-control-allow-origin") == "http://localhost:5173");
}

BOOST_AUTO_TEST_CASE(a_429_to_a_request_with_a_body_closes_the_connection_after_answering) {
    running_server server(limited_config());
    const std::uint16_t port = server.port();
    keep_alive_connection c(port);
    for (int i = 0; i < 5; ++i) {
        c.get("/api/v1/categories");
    }
    const std::string body = R"({"email":"john@mail.com"})";
    const auto result = raw_exchange_until_close(
        port,
        "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body
    );
    const auto replies = parse_responses(result.bytes);
    BOOST_TEST_REQUIRE(replies.size() == 1U);
    check_429(replies.front());
    BOOST_TEST(result.closed_by_server);
}

BOOST_AUTO_TEST_CASE(an_untrusted_x_forwarded_for_does_not_choose_the_bucket) {
    // No trusted proxy at all, then one that is not the peer: either way the peer's bucket is used.
    for (const std::string_view trusted : {"", "10.9.8.7"}) {
        BOOST_TEST_CONTEXT("trusted proxies '" << trusted << "'") {
            running_server server(limited_config(trusted));
            const std::uint16_t port = server.port();
            int refused = 0;
            for (int i = 0; i < 12; ++i) {
                const auto r = request_from(
                    "127.0.0.3",
                    port,
                    "/api/v1/categories",
                    {{"X-Forwarded-For", "192.0.2." + std::to_string(i + 1)},
                     {"Forwarded", "for=198.51.100." + std::to_string(i + 1)}}
                );
                refused += r.status == 429U ? 1 : 0;
            }
            BOOST_TEST(refused >= 1);
        }
    }
}

BOOST_AUTO_TEST_CASE(behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket) {
    running_server server(limited_config("127.0.0.0/8"));
    const std::uint16_t port = server.port();
    int refused = 0;
    for (int i = 0; i < 12; ++i) {
        refused += request_from(
                       "127.0.0.1", port, "/api/v1/categories", {{"X-Forwarded-For", "192.0.2.1"}}
                   ).status == 429U
                       ? 1
                       : 0;
    }
    BOOST_TEST(refused >= 1);
    // Another client behind the same proxy, and the proxy's own requests, are untouched.
    for (int i = 0; i < 5; ++i) {
        const auto r =
            request_from("127.0.0.1", port, "/api/v1/categories", {{"X-Forwarded-For", "192.0.2.2"}});
        BOOST_TEST(r.status == 200U);
        check_rate_limit_fields(r);
    }
    BOOST_TEST(request_from("127.0.0.1", port, "/api/v1/categories").status == 200U);
}

BOOST_AUTO_TEST_CASE(off_by_default_no_429_and_no_rate_limit_fields) {
    auto c = test_config();
    c.storage.generated_locations = 1000;
    BOOST_TEST(!c.rate_limit.has_value());
    running_server server(c);
    keep_alive_connection conn(server.port());
    for (int i = 0; i < 50; ++i) {
        const auto r = conn.get("/api/v1/categories");
        BOOST_TEST(r.status == 200U);
        BOOST_TEST(r.header("ratelimit").empty());
        BOOST_TEST(r.header("ratelimit-policy").empty());
        BOOST_TEST(r.header("retry-after").empty());
    }
}

BOOST_AUTO_TEST_CASE(the_binary_takes_the_flags_and_the_environment) {
    child_process server(instance_args("memory", {"--rate-limit", "5/s", "--rate-burst", "5"}));
    const std::uint16_t port = server.wait_listening(std::chrono::seconds(20));
    keep_alive_connection c(port);
    int refused = 0;
    for (int i = 0; i < 20; ++i) {
        const auto r = c.get("/api/v1/categories");
        if (r.status == 429U) {
            ++refused;
            check_429(r);
        }
    }
    BOOST_TEST(refused >= 1);
    BOOST_TEST(c.get("/healthz").status == 200U);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(15)).value_or(-1) == 0);

    // The variables, with the default burst (= the rate): 2 per second.
    child_process from_env(instance_args("memory"), {"STOREFRONT_RATE_LIMIT=2/s"});
    const std::uint16_t env_port = from_env.wait_listening(std::chrono::seconds(20));
    const auto first = get(env_port, "/api/v1/categories");
    BOOST_TEST(first.header("ratelimit-policy") == "2;w=1");
    from_env.signal(SIGTERM);
    BOOST_TEST(from_env.wait_exit(std::chrono::seconds(15)).value_or(-1) == 0);
}

BOOST_AUTO_TEST_CASE(bad_rate_limit_flags_refuse_to_start_with_a_message) {
    struct row {
        std::vector<std::string> args;
        std::vector<std::string> env;
        std::string message;
    };
    const std::vector<row> rows = {
        {{"--rate-limit", "5/m"}, {}, "--rate-limit must be a number of requests per second"},
        {{"--rate-limit", "0/s"}, {}, "--rate-limit must be"},
        {{"--rate-limit", "fast"}, {}, "not 'fast'"},
        {{}, {"STOREFRONT_RATE_LIMIT=-3/s"}, "--rate-limit must be"},
        {{"--rate-limit", "5/s", "--rate-burst", "0"}, {}, "--rate-burst must be a whole number"},
        {{"--rate-limit", "5/s", "--rate-burst", "2/s"}, {}, "--rate-burst must be"},
        {{"--rate-burst", "10"}, {}, "--rate-burst needs --rate-limit"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.message) {
            child_process p(r.args, r.env);
            BOOST_TEST(p.wait_exit(std::chrono::seconds(5)).value_or(-1) == 2);
            p.wait_for_line("storefront:", std::chrono::seconds(1));
            BOOST_TEST(p.output().find(r.message) != std::string::npos, p.output());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
