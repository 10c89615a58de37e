// Tests for the hand-written origin-form parser: it must accept exactly what Boost.URL's
// parse_origin_form accepts and decode parameters exactly as Boost.URL's params() does, on a table of
// edge cases and on many random targets over the characters that matter.
#include <random>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <boost/url/parse.hpp>

#include "server/codec/request_target.hpp"

using namespace storefront;
using namespace storefront::server;

namespace {

// Boost.URL's verdict and parameters for `target`, in the shape ours gives.
struct reference {
    bool valid = false;
    std::string path;
    core::query_params params;
};

reference boost_reference(const std::string& target) {
    reference out;
    const auto url = boost::urls::parse_origin_form(target);
    if (!url) {
        return out;
    }
    out.valid = true;
    out.path = url->encoded_path();
    for (const auto param : url->params()) {
        out.params.push_back({param.key, param.value});
    }
    return out;
}

void expect_same_as_boost(const std::string& target) {
    BOOST_TEST_CONTEXT("target " << target) {
        const reference expected = boost_reference(target);
        const auto ours = parse_request_target(target);
        BOOST_TEST_REQUIRE(ours.has_value() == expected.valid);
        if (!ours) {
            return;
        }
        BOOST_TEST(std::string(ours->path) == expected.path);
        core::query_params params;
        append_query_params(*ours, params);
        BOOST_TEST_REQUIRE(params.size() == expected.params.size());
        for (std::size_t i = 0; i < params.size(); ++i) {
            BOOST_TEST(params[i].name == expected.params[i].name);
            BOOST_TEST(params[i].value == expected.params[i].value);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(request_target_codec)

BOOST_AUTO_TEST_CASE(table_agrees_with_boost_url) {
    const std::vector<std::string> targets = {
        "/",
        "/api/v1/products",
        "/api/v1/products/",
        "/api/v1/products?offset=0&limit=10",
        "/api/v1/products?",
        "/api/v1/products?&&",
        "/api/v1/products?a&b=&=c&=",
        "/api/v1/products?q=red+shirt&title=caf%C3%A9",
        "/api/v1/products?q=a%26b%3Dc&x=%2B",
        "/api/v1/products?k%20ey=v%20al&p+q=r+s",
        "/a/b%2Fc?x=1?y=2/z",
        "//double//slash",
        "/path:with@colon!$&'()*,;=",
        "/api/v1/products?x=%00",
        "/%41%42?%61=%62",
        // Refused: not origin-form, bad escapes, characters RFC 3986 does not allow raw.
        "",
        "*",
        "api/v1/products",
        "http://example.com/",
        "/bad%",
        "/bad%4",
        "/bad%zz",
        "/bad%4g",
        "/x?y=%",
        "/x?y=%a",
        "/frag#ment",
        "/sp ace",
        "/quote\"",
        "/angle<>",
        "/brace{}",
        "/pipe|",
        "/back\\slash",
        "/caret^",
        "/grave`",
        "/bracket[]",
        "/x?y=[1]",
        std::string("/nul\0x", 6),
        "/utf8\xC3\xA9",
    };
    for (const auto& t : targets) {
        expect_same_as_boost(t);
    }
}

BOOST_AUTO_TEST_CASE(random_targets_agree_with_boost_url) {
    // Characters where the two could disagree: delimiters, escapes, hex digits, bytes RFC 3986 refuses.
    const std::string alphabet = "/?&=%+#aF09gz-._~!$'()*,;:@ []|\\\"<>{}^`\x7f\x80\xff";
    std::mt19937 random(20261125);
    std::uniform_int_distribution<std::size_t> length(0, 24);
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    for (int i = 0; i < 20000; ++i) {
        std::string target = (i % 4 == 0) ? "" : "/";
        const std::size_t n = length(random);
        for (std::size_t j = 0; j < n; ++j) {
            target += alphabet[pick(random)];
        }
        expect_same_as_boost(target);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(absolute_form_targets)

// RFC 9112 §3.2.2: a server must accept an absolute-form target and read the path from it.
BOOST_AUTO_TEST_CASE(an_absolute_form_target_is_read_as_its_origin_form) {
    BOOST_TEST(origin_form_of("http://storefront/api/v1/products?limit=2") == "/api/v1/products?limit=2");
    BOOST_TEST(origin_form_of("HTTPS://127.0.0.1:8080/api/v3/pet/1") == "/api/v3/pet/1");
    BOOST_TEST(origin_form_of("http://[::1]:8080/") == "/");
    BOOST_TEST(origin_form_of("http://storefront") == "/");
    BOOST_TEST(origin_form_of("/api/v1/products") == "/api/v1/products");
}

BOOST_AUTO_TEST_CASE(what_is_not_a_plain_http_authority_is_left_for_the_parser_to_refuse) {
    for (const std::string_view target :
         {"http://user:secret@storefront/api/v1/products",
          "http:///api/v1/products",
          "ftp://host/file",
          "http://host?x=1",
          "http://ho st/",
          "*",
          "http:/api"}) {
        BOOST_TEST_CONTEXT("target " << target) {
            BOOST_TEST(origin_form_of(target) == target);
            BOOST_TEST(!parse_request_target(origin_form_of(target)).has_value());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
