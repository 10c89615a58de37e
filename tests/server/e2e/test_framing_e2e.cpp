// Raw-socket regression tests of the framing policy: every rule answers its exact status, closes the
// connection, and leaves the server serving the next client.

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront::test;

namespace {

const std::string post_head =
    "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
const std::string body = R"({"email":"john@mail.com"})";

struct framing_case {
    std::string name;
    std::string bytes;
    unsigned status;
};

// The refusal arrives, it is the only response, it says and does close, and a new connection still works.
void check_refused(std::uint16_t port, const framing_case& c) {
    const auto result = raw_exchange_until_close(port, c.bytes);
    BOOST_TEST(result.closed_by_server);
    const auto replies = parse_responses(result.bytes);
    BOOST_TEST_REQUIRE(replies.size() == 1u, result.bytes);
    BOOST_TEST(replies[0].status == c.status);
    BOOST_TEST(replies[0].header("connection") == "close");
    BOOST_TEST(replies[0].header("content-type") == "application/json; charset=utf-8");
    const auto json = replies[0].json();
    BOOST_TEST(json.at("statusCode").as_int64() == static_cast<std::int64_t>(c.status));
    BOOST_TEST(json.at("message").is_string());
    BOOST_TEST(get(port, "/api/v1/categories").status == 200u);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(framing_policy_over_sockets)

BOOST_AUTO_TEST_CASE(transfer_encoding_rules) {
    const std::string chunked_body = "19\r\n" + body + "\r\n0\r\n\r\n";
    const std::vector<framing_case> table{
        {"identity", post_head + "Transfer-Encoding: identity\r\n\r\n" + body, 400},
        {"chunked, identity", post_head + "Transfer-Encoding: chunked, identity\r\n\r\n" + chunked_body, 400},
        {"identity, chunked", post_head + "Transfer-Encoding: identity, chunked\r\n\r\n" + chunked_body, 400},
        {"chunked, chunked", post_head + "Transfer-Encoding: chunked, chunked\r\n\r\n" + chunked_body, 400},
        {"xchunked", post_head + "Transfer-Encoding: xchunked\r\n\r\n" + chunked_body, 501},
        {"gzip, chunked", post_head + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked_body, 501},
        {"empty", post_head + "Transfer-Encoding: \r\n\r\n" + chunked_body, 400},
        {"duplicate headers",
         post_head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked_body,
         400},
        {"in HTTP/1.0",
         "POST /api/v1/users/is-available HTTP/1.0\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\n\r\n" +
             chunked_body,
         400},
        {"with Content-Length after",
         post_head + "Transfer-Encoding: chunked\r\nContent-Length: 25\r\n\r\n" + chunked_body,
         400},
        {"with Content-Length before",
         post_head + "Content-Length: 25\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked_body,
         400},
        {"bad chunk size",
         post_head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body + "\r\n0\r\n\r\n",
         400},
    };
    for (const auto& c : table) {
        BOOST_TEST_CONTEXT(c.name) {
            check_refused(shared_server().port(), c);
        }
    }
}

BOOST_AUTO_TEST_CASE(content_length_rules) {
    const std::vector<framing_case> table{
        {"duplicate equal", post_head + "Content-Length: 25\r\nContent-Length: 25\r\n\r\n" + body, 400},
        {"conflicting", post_head + "Content-Length: 25\r\nContent-Length: 3\r\n\r\n" + body, 400},
        {"list form", post_head + "Content-Length: 25, 25\r\n\r\n" + body, 400},
        {"plus sign", post_head + "Content-Length: +25\r\n\r\n" + body, 400},
        {"minus sign", post_head + "Content-Length: -1\r\n\r\n" + body, 400},
        {"not digits", post_head + "Content-Length: 2x\r\n\r\n" + body, 400},
        {"hex", post_head + "Content-Length: 0x19\r\n\r\n" + body, 400},
        {"huge", post_head + "Content-Length: 99999999999999999999999\r\n\r\n" + body, 400},
    };
    for (const auto& c : table) {
        BOOST_TEST_CONTEXT(c.name) {
            check_refused(shared_server().port(), c);
        }
    }
}

BOOST_AUTO_TEST_CASE(host_folding_version_and_syntax_rules) {
    const std::vector<framing_case> table{
        {"missing Host in 1.1", "GET /api/v1/categories HTTP/1.1\r\nAccept: */*\r\n\r\n", 400},
        {"two Hosts", "GET /api/v1/categories HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
        {"two Hosts in 1.0", "GET /api/v1/categories HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400},
        {"obs-fold space", "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-A: one\r\n two\r\n\r\n", 400},
        {"obs-fold tab", "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-A: one\r\n\ttwo\r\n\r\n", 400},
        {"bare LF", "GET /api/v1/categories HTTP/1.1\nHost: x\n\n", 400},
        {"bare CR", "GET /api/v1/categories HTTP/1.1\r\nHost: x\rX-A: 1\r\n\r\n", 400},
        {"HTTP/2.0", "GET /api/v1/categories HTTP/2.0\r\nHost: x\r\n\r\n", 505},
        {"HTTP/1.2", "GET /api/v1/categories HTTP/1.2\r\nHost: x\r\n\r\n", 505},
        {"HTTP/3.0", "GET /api/v1/categories HTTP/3.0\r\nHost: x\r\n\r\n", 505},
        {"broken version", "GET /api/v1/categories HTTP/1.x\r\nHost: x\r\n\r\n", 400},
        {"garbage", std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15), 400},
        {"no version", "GET /api/v1/categories\r\nHost: x\r\n\r\n", 400},
        {"lower-case version", "GET /api/v1/categories http/1.1\r\nHost: x\r\n\r\n", 400},
        {"space before colon", "GET /api/v1/categories HTTP/1.1\r\nHost : x\r\n\r\n", 400},
        {"unknown Expect", "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n", 417},
    };
    for (const auto& c : table) {
        BOOST_TEST_CONTEXT(c.name) {
            check_refused(shared_server().port(), c);
        }
    }
}

BOOST_AUTO_TEST_CASE(size_limits) {
    std::string many_fields = "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n";
    for (int i = 0; i < 101; ++i) {
        many_fields += "X-F" + std::to_string(i) + ": 1\r\n";
    }
    many_fields += "\r\n";
    std::string chunked_big = post_head + "Transfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 80; ++i) {
        chunked_big += "400\r\n" + std::string(1024, ' ') + "\r\n";  // 80 KiB of JSON whitespace
    }
    chunked_big += "0\r\n\r\n";
    const std::vector<framing_case> table{
        {"header over 8 KiB",
         "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n",
         431},
        {"header never ends",
         "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a'),
         431},
        {"101 fields", many_fields, 431},
        {"JSON body over 64 KiB by Content-Length", post_head + "Content-Length: 70000\r\n\r\n{", 413},
        {"JSON body over 64 KiB chunked", chunked_big, 413},
        {"octet body over 1 MiB",
         "POST /api/v1/users/is-available HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
         "Content-Length: 2000000\r\n\r\n",
         413},
    };
    for (const auto& c : table) {
        BOOST_TEST_CONTEXT(c.name) {
            check_refused(shared_server().port(), c);
        }
    }
    // Exactly 100 fields is still fine.
    std::string hundred = "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
    for (int i = 0; i < 98; ++i) {
        hundred += "X-F" + std::to_string(i) + ": 1\r\n";
    }
    hundred += "\r\n";
    const auto replies = parse_responses(raw_exchange(shared_server().port(), hundred));
    BOOST_TEST_REQUIRE(replies.size() == 1u);
    BOOST_TEST(replies[0].status == 200u);
}

BOOST_AUTO_TEST_CASE(legitimate_framings_work) {
    const auto port = shared_server().port();
    // Chunked body, with an extension and a trailer; then a pipelined request after it.
    const std::string chunked = post_head + "Transfer-Encoding: chunked\r\n\r\n" + "5;ext=1\r\n" +
                                body.substr(0, 5) + "\r\n14\r\n" + body.substr(5) +
                                "\r\n0\r\nX-Trailer: 1\r\n\r\n" +
                                "GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    const auto replies = parse_responses(raw_exchange(port, chunked));
    BOOST_TEST_REQUIRE(replies.size() == 2u);
    BOOST_TEST(replies[0].status == 200u);
    BOOST_TEST(replies[0].body == R"({"isAvailable":false})");
    BOOST_TEST(replies[1].status == 200u);

    // Expect: 100-continue gets the interim response, then the answer.
    const auto expect = raw_exchange(
        port, post_head + "Expect: 100-continue\r\nContent-Length: 25\r\nConnection: close\r\n\r\n" + body
    );
    BOOST_TEST(expect.rfind("HTTP/1.1 100 Continue\r\n\r\n", 0) == 0u);
    const auto after_continue = parse_responses(std::string_view(expect).substr(25));
    BOOST_TEST_REQUIRE(after_continue.size() == 1u);
    BOOST_TEST(after_continue[0].status == 200u);

    // Empty lines before a request line are ignored (RFC 9112 §2.2); OWS around Content-Length is fine.
    const auto padded = parse_responses(raw_exchange(
        port, "\r\n\r\n" + post_head + "Content-Length:  25 \r\nConnection: close\r\n\r\n" + body
    ));
    BOOST_TEST_REQUIRE(padded.size() == 1u);
    BOOST_TEST(padded[0].status == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
