// The framing policy as pure functions: header section boundaries and raw header checks.

#include <boost/test/unit_test.hpp>

#include "server/transport/framing_policy.hpp"

using namespace storefront::server;

BOOST_AUTO_TEST_SUITE(framing_policy_units)

BOOST_AUTO_TEST_CASE(header_section_end_finds_the_blank_line) {
    BOOST_TEST(header_section_end("GET / HTTP/1.1\r\nHost: x\r\n\r\nBODY") == 27u);
    BOOST_TEST(header_section_end("GET / HTTP/1.1\nHost: x\n\n") == 24u);
    BOOST_TEST(header_section_end("GET / HTTP/1.1\r\nHost: x\r\n") == std::string_view::npos);
    BOOST_TEST(header_section_end("") == std::string_view::npos);
}

BOOST_AUTO_TEST_CASE(raw_header_checks) {
    const limits_config limits;
    BOOST_TEST(!check_raw_header("GET / HTTP/1.1\r\nHost: x\r\n\r\n", limits).has_value());
    const std::vector<std::pair<std::string, unsigned>> refused{
        {"GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400},
        {"GET / HTTP/1.1\nHost: x\r\n\r\n", 400},
        {"GET / HTTP/1.1\r\nHost: x\r\n\n", 400},
        {"GET / HTTP/1.1\r\nHo\rst: x\r\n\r\n", 400},
        {std::string("GET / HTTP/1.1\r\nHost: \0x\r\n\r\n", 27), 400},
        {"GET / HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n", 431},
    };
    for (const auto& [header, status] : refused) {
        BOOST_TEST_CONTEXT(header.substr(0, 40)) {
            const auto refusal = check_raw_header(header, limits);
            BOOST_TEST_REQUIRE(refusal.has_value());
            BOOST_TEST(static_cast<unsigned>(refusal->status) == status);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
