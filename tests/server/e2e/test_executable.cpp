// The storefront binary as users run it: flags, environment, start-up line, and a clean exit on SIGTERM.

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>
#include <poll.h>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/child_process.hpp"
#include "http_client.hpp"

using namespace storefront::test;

BOOST_AUTO_TEST_SUITE(executable)

BOOST_AUTO_TEST_CASE(starts_on_a_free_port_serves_and_stops_cleanly_on_sigterm) {
    child_process server({"--port", "0", "--threads", "2", "--generated-locations", "2000"});
    const auto warning = server.wait_for_line("generated_token_secrets", std::chrono::seconds(20));
    BOOST_TEST(warning.has_value());
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(20));
    BOOST_TEST_REQUIRE(line.has_value(), server.output());
    const auto port = port_of(*line);
    BOOST_TEST(port != 0u);
    BOOST_TEST(get(port, "/api/v1/categories").status == 200u);

    const auto logged = server.wait_for_line("\"request\"", std::chrono::seconds(5));
    BOOST_TEST_REQUIRE(logged.has_value());
    const auto entry = boost::json::parse(*logged);
    BOOST_TEST(entry.at("method").as_string() == "GET");
    BOOST_TEST(entry.at("path").as_string() == "/api/v1/categories");
    BOOST_TEST(entry.at("status").as_int64() == 200);
    BOOST_TEST(entry.at("duration_us").is_int64());

    // An idle keep-alive connection must not hold up the shutdown.
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket idle(io);
    idle.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    std::this_thread::sleep_for(std::chrono::milliseconds(100));

    const auto started = std::chrono::steady_clock::now();
    server.signal(SIGTERM);
    const auto code = server.wait_exit(std::chrono::seconds(8));
    BOOST_TEST_REQUIRE(code.has_value());
    BOOST_TEST(*code == 0);
    const auto stop_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    BOOST_TEST(stop_ms.count() < 3000);
}

BOOST_AUTO_TEST_CASE(environment_variables_configure_and_flags_win) {
    child_process server(
        {"--generated-locations", "1000"},
        {"STOREFRONT_PORT=0",
         "STOREFRONT_ACCESS_SECRET=env-access-secret-0123456789",
         "STOREFRONT_REFRESH_SECRET=env-refresh-secret-0123456789",
         "STOREFRONT_GENERATED_LOCATIONS=5000",
         "STOREFRONT_ACCESS_LOG=false"}
    );
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(20));
    BOOST_TEST_REQUIRE(line.has_value(), server.output());
    BOOST_TEST(boost::json::parse(*line).at("locations").as_int64() == 1000);  // the flag beat the variable
    BOOST_TEST(server.output().find("generated_token_secrets") == std::string::npos);
    BOOST_TEST(get(port_of(*line), "/api/v1/users").status == 200u);
    BOOST_TEST(!server.wait_for_line("\"request\"", std::chrono::seconds(1)).has_value());  // access log off
    server.signal(SIGINT);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(8)).value_or(-1) == 0);
}

BOOST_AUTO_TEST_CASE(help_and_bad_flags) {
    child_process help({"--help"});
    BOOST_TEST(help.wait_exit(std::chrono::seconds(5)).value_or(-1) == 0);
    help.wait_for_line("--access-secret", std::chrono::seconds(1));
    BOOST_TEST(help.output().find("--access-secret") != std::string::npos);

    const std::vector<std::vector<std::string>> bad{
        {"--port", "70000"},
        {"--port", "abc"},
        {"--no-such-flag"},
        {"--access-secret", "short", "--refresh-secret", "also-short"},
        {"--access-secret", "same-secret-0123456789", "--refresh-secret", "same-secret-0123456789"},
        {"--header-timeout", "0"},
    };
    for (const auto& args : bad) {
        BOOST_TEST_CONTEXT(args.front()) {
            child_process p(args);
            BOOST_TEST(p.wait_exit(std::chrono::seconds(5)).value_or(-1) == 2);
        }
    }
}

// --pet-port opens a second listener on the same stores; the pet flags are validated at start.
BOOST_AUTO_TEST_CASE(pet_port_second_listener_and_pet_flags) {
    const std::uint16_t pet_port = free_port();
    child_process server(
        {"--port",
         "0",
         "--pet-port",
         std::to_string(pet_port),
         "--threads",
         "1",
         "--generated-locations",
         "100",
         "--access-log",
         "false"}
    );
    BOOST_TEST(server.wait_for_line("development_pet_credentials", std::chrono::seconds(20)).has_value());
    const auto pet_line = server.wait_for_line("\"pet_listening\"", std::chrono::seconds(20));
    BOOST_TEST_REQUIRE(pet_line.has_value(), server.output());
    BOOST_TEST(port_of(*pet_line) == pet_port);
    const auto line = server.wait_for_line("\"listening\"", std::chrono::seconds(20));
    BOOST_TEST_REQUIRE(line.has_value(), server.output());
    BOOST_TEST(
        get(pet_port, "/api/v3/pet/findByStatus?status=sold").body.find("\"Dog 2\"") != std::string::npos
    );
    // Both listeners share one store: a user created on one is seen on the other.
    const auto created = post_json(pet_port, "/api/v3/user", R"({"username":"two-listeners"})");
    BOOST_TEST(created.status == 200u, created.body);
    BOOST_TEST(get(port_of(*line), "/api/v3/user/two-listeners").status == 200u);
    server.signal(SIGTERM);
    BOOST_TEST(server.wait_exit(std::chrono::seconds(8)).value_or(-1) == 0);

    const std::vector<std::vector<std::string>> bad{
        {"--pet-clients", "no-secret"},
        {"--pet-clients", "c:s:admin"},
        {"--pet-token-secret", "short"},
        {"--pet-token-ttl", "0"},
        {"--pet-port", "70000"},
        {"--port", "9123", "--pet-port", "9123"},
        {"--access-secret", "same-secret-0123456789", "--pet-token-secret", "same-secret-0123456789"},
    };
    for (const auto& args : bad) {
        BOOST_TEST_CONTEXT(args.front() << " " << args.at(1)) {
            child_process p(args);
            BOOST_TEST(p.wait_exit(std::chrono::seconds(5)).value_or(-1) == 2);
        }
    }
}

// Under systemd the log goes to journald through a pipe; a journal that stops reading must not stop the
// service. Here stdout is a pipe this test does not read while it sends requests: it is full after 64 KiB
// of access lines, and every request must still be answered.
BOOST_AUTO_TEST_CASE(a_log_reader_that_stops_reading_never_stalls_requests) {
    child_process server({"--port", "0", "--threads", "1", "--storage", "memory", "--access-log", "true"});
    const auto port = server.wait_listening(std::chrono::seconds(20));
    constexpr int requests = 3000;  // about 450 KB of access lines
    int answered = 0;
    for (int i = 0; i < requests; ++i) {
        const auto reply = get(port, "/api/v1/products/" + std::to_string(1 + i % 50));
        BOOST_TEST_REQUIRE(reply.status == 200u);
        ++answered;
    }
    BOOST_TEST(answered == requests);
    // Once the pipe is read again, the buffered lines come through.
    BOOST_TEST(server.wait_for_line("\"path\":\"/api/v1/products/50\"", std::chrono::seconds(10)).has_value()
    );
}

BOOST_AUTO_TEST_CASE(unreadable_location_file_fails_start_with_a_message) {
    child_process p({"--port", "0", "--location-file", "/nonexistent/locations.csv"});
    BOOST_TEST(p.wait_exit(std::chrono::seconds(10)).value_or(-1) == 1);
    p.wait_for_line("fatal", std::chrono::seconds(1));
    BOOST_TEST(p.output().find("locations.csv") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
