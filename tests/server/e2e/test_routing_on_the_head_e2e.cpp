// Routing on the real server: a request answered from its head (404, 405, 401, 413) costs no body read,
// and a body within the route's limit is read.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;

BOOST_AUTO_TEST_SUITE(routing_on_the_head)

// Each of these is answered from the head; the declared body is never sent, and the server answers at
// once and closes (it cannot skip a body it did not read).
BOOST_AUTO_TEST_CASE(answers_before_the_body_arrives) {
    const std::uint16_t port = test::shared_server().port();
    struct row {
        std::string head;
        std::string status;
    };
    const std::vector<row> table{
        {"POST /api/v1/nothing HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
         "1000\r\n\r\n",
         "404"},
        {"PATCH /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", "405"},
        {"POST /api/v3/pet HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
         "1000\r\n\r\n",
         "401"},
        {"POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
         "100000\r\n\r\n",
         "413"},
    };
    for (const auto& [head, status] : table) {
        BOOST_TEST_CONTEXT(head.substr(0, head.find('\r'))) {
            const auto result = test::raw_exchange_until_close(port, head, std::chrono::milliseconds(2000));
            BOOST_TEST(result.closed_by_server);
            BOOST_TEST(result.bytes.starts_with("HTTP/1.1 " + status));
        }
    }
}

// A body within the route's limit is read and handled (here: refused as malformed JSON, not for its size).
BOOST_AUTO_TEST_CASE(a_body_within_the_route_limit_is_read) {
    const std::uint16_t port = test::shared_server().port();
    const std::string big(60 * 1024, 'x');
    // 60 KiB of JSON text: within the JSON limit (64 KiB in the test config), so it is parsed (and refused
    // as malformed JSON, 400) rather than refused for its size.
    const std::string json_request =
        "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/json\r\nContent-Length: " +
        std::to_string(big.size()) + "\r\nConnection: close\r\n\r\n" + big;
    BOOST_TEST(test::raw_exchange(port, json_request).starts_with("HTTP/1.1 400"));
}

BOOST_AUTO_TEST_SUITE_END()
