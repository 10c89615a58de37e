// Request targets as browsers and HTTP tools send them: every printable ASCII character and UTF-8 raw in a
// path segment, in a used query value and in an unused one, answered exactly as the same value
// percent-encoded; what still breaks a request (bad escapes) stays a 400; the title filter finds titles
// with brackets, pipes and accents sent either way.

#include <cstdio>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;
using namespace storefront::test;

namespace {

std::string percent_encoded(std::string_view text) {
    std::string out;
    for (const char c : text) {
        char buffer[4];
        std::snprintf(buffer, sizeof buffer, "%%%02X", static_cast<unsigned char>(c));
        out += buffer;
    }
    return out;
}

// The status and body for `target` sent byte for byte (the Beast client would not send some of them).
http_reply raw_get(std::uint16_t port, const std::string& target) {
    const auto replies = parse_responses(
        raw_exchange(port, "GET " + target + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    );
    BOOST_TEST_REQUIRE(replies.size() == 1u);
    return replies.front();
}

// Every printable ASCII character but those with a meaning in the target's syntax at that place.
std::vector<std::string> printable_except(std::string_view structural) {
    std::vector<std::string> out;
    for (char c = 0x21; c <= 0x7E; ++c) {
        if (structural.find(c) == std::string_view::npos) {
            out.emplace_back(1, c);
        }
    }
    for (const char* utf8 : {"é", "ü", "日本", "😀"}) {
        out.emplace_back(utf8);
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(request_targets)

BOOST_AUTO_TEST_CASE(raw_characters_in_a_path_segment_mean_their_escapes) {
    const auto port = shared_server().port();
    for (const auto& c : printable_except("/?%")) {
        BOOST_TEST_CONTEXT("slug a" << c << "b") {
            const auto raw = raw_get(port, "/api/v1/products/slug/a" + c + "b");
            const auto encoded = raw_get(port, "/api/v1/products/slug/a" + percent_encoded(c) + "b");
            BOOST_TEST(raw.status == 404u);  // no such slug: found as a route, not refused
            BOOST_TEST(raw.status == encoded.status);
            BOOST_TEST(raw.body == encoded.body);
        }
        if (c.size() == 1 && c[0] >= '0' && c[0] <= '9') {
            continue;  // "12" is an id
        }
        BOOST_TEST_CONTEXT("id 1" << c) {
            const auto raw = raw_get(port, "/api/v1/products/1" + c);
            BOOST_TEST(raw.status == 400u);
            BOOST_TEST(raw.body == raw_get(port, "/api/v1/products/1" + percent_encoded(c)).body);
        }
    }
    const auto pipe = raw_get(port, "/api/v1/products/1|2");
    BOOST_TEST(pipe.json().at("message").as_string() == "Validation failed (numeric string is expected)");
}

BOOST_AUTO_TEST_CASE(raw_characters_in_query_values_mean_their_escapes) {
    const auto port = shared_server().port();
    const auto plain = raw_get(port, "/api/v1/products?limit=2");
    BOOST_TEST(plain.status == 200u);
    for (const auto& c : printable_except("&=+%#")) {
        BOOST_TEST_CONTEXT("x=" << c) {
            const auto unused = raw_get(port, "/api/v1/products?limit=2&x=a" + c + "b");
            BOOST_TEST(unused.status == 200u);
            BOOST_TEST(unused.body == plain.body);
        }
        BOOST_TEST_CONTEXT("title=" << c) {
            const auto raw = raw_get(port, "/api/v1/products?title=" + c);
            const auto encoded = raw_get(port, "/api/v1/products?title=" + percent_encoded(c));
            BOOST_TEST(raw.status == 200u);
            BOOST_TEST(raw.body == encoded.body);
        }
    }
}

// RFC 9112 §3.2.2: a server must accept an absolute-form target; its path and query are what count.
BOOST_AUTO_TEST_CASE(an_absolute_form_target_is_answered_as_its_path) {
    const auto port = shared_server().port();
    const auto plain = raw_get(port, "/api/v1/products?limit=2");
    const auto absolute = raw_get(port, "http://elsewhere.example:8080/api/v1/products?limit=2");
    BOOST_TEST(absolute.status == 200u);
    BOOST_TEST(absolute.body == plain.body);
    const auto with_userinfo = raw_get(port, "http://user:pw@t/api/v1/products");
    BOOST_TEST(with_userinfo.status == 400u);
    BOOST_TEST(with_userinfo.json().at("message").as_string() == "Malformed request target");
}

BOOST_AUTO_TEST_CASE(what_breaks_a_target_is_still_refused) {
    const auto port = shared_server().port();
    for (const std::string bad :
         {"/api/v1/products?x=%", "/api/v1/products?x=%zz", "/api/v1/products/%4", "/api/v1/%"}) {
        BOOST_TEST_CONTEXT(bad) {
            const auto reply = raw_get(port, bad);
            BOOST_TEST(reply.status == 400u);
            BOOST_TEST(reply.json().at("message").as_string() == "Malformed request target");
        }
    }
    const auto invalid_utf8 = raw_get(port, "/api/v1/products?title=%C3");
    BOOST_TEST(invalid_utf8.status == 400u);
    BOOST_TEST(invalid_utf8.json().at("message").at(0).as_string() == "title must be a valid UTF-8 string");
    BOOST_TEST(raw_get(port, "/api/v1/products?title=\xC3").body == invalid_utf8.body);
}

BOOST_AUTO_TEST_CASE(non_numbers_get_the_public_texts) {
    const auto port = shared_server().port();
    for (const std::string name : {"offset", "limit"}) {
        const auto reply = get(port, "/api/v1/products?" + name + "=abc");
        BOOST_TEST(
            reply.json().at("message").at(0).as_string() ==
            name + " must be a number conforming to the specified constraints"
        );
    }
    BOOST_TEST(
        get(port, "/api/v1/locations?size=x").json().at("message").at(0).as_string() ==
        "size must be a number conforming to the specified constraints"
    );
    BOOST_TEST(
        get(port, "/api/v1/locations?origin=1,2&radius=x").json().at("message").at(0).as_string() ==
        "radius must be a number conforming to the specified constraints"
    );
    BOOST_TEST(
        get(port, "/api/v1/products?limit=101").json().at("message").at(0).as_string() ==
        "limit must not be greater than 100"
    );
    BOOST_TEST(
        get(port, "/api/v1/products?limit=0").json().at("message").at(0).as_string() ==
        "limit must not be less than 1"
    );
}

BOOST_AUTO_TEST_CASE(the_title_filter_finds_brackets_pipes_and_accents_either_way) {
    auto config = test_config();
    config.storage.generated_locations = 1000;
    running_server server(config);
    const auto created = post_json(
        server.port(),
        "/api/v1/products",
        R"({"title":"Mug [XL] | café","price":5,"description":"d","categoryId":1,"images":["https://x.com/a.png"]})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u);
    for (const std::string term : {"[xl]", "] |", "café", "MUG [XL]"}) {
        std::string raw;  // a space cannot be sent raw: it ends the target, so every client encodes it
        for (const char c : term) {
            raw += c == ' ' ? std::string("%20") : std::string(1, c);
        }
        for (const auto& sent : {raw, percent_encoded(term)}) {
            BOOST_TEST_CONTEXT(sent) {
                const auto reply = raw_get(server.port(), "/api/v1/products?title=" + sent);
                BOOST_TEST(reply.status == 200u);
                const auto list = reply.json().as_array();
                BOOST_TEST(list.size() == 1u);
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
