// The Cookie header reader (strict, malformed pairs skipped), the access token a request presents
// (Authorization wins over the cookie), the login cookies' Set-Cookie lines, the --cors-origins matcher
// and the CSRF check's decisions.

#include <stdexcept>
#include <string>

#include <boost/beast/http/message.hpp>
#include <boost/test/unit_test.hpp>

#include "server/codec/cookies.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/services/cors_origins.hpp"

using namespace storefront::server;
namespace http = boost::beast::http;

namespace {

http::request_header<> head_with(std::initializer_list<std::pair<std::string, std::string>> fields) {
    http::request_header<> head;
    head.method(http::verb::post);
    head.target("/api/v1/auth/logout");
    head.set(http::field::host, "127.0.0.1:8080");
    for (const auto& [name, value] : fields) {
        head.insert(name, value);
    }
    return head;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cookies_unit)

BOOST_AUTO_TEST_CASE(a_cookie_is_found_among_others_and_spaces) {
    BOOST_TEST(cookie_value("a=1; storefront_access=abc.def; b=2", "storefront_access").value() == "abc.def");
    BOOST_TEST(cookie_value("storefront_access=x", "storefront_access").value() == "x");
    BOOST_TEST(cookie_value("  a=1 ;storefront_access=x  ", "storefront_access").value() == "x");
    BOOST_TEST(cookie_value("k=\"quoted\"", "k").value() == "quoted");
    BOOST_TEST(cookie_value("k=", "k").value().empty());
    BOOST_TEST(!cookie_value("a=1; b=2", "k").has_value());
    BOOST_TEST(!cookie_value("", "k").has_value());
    // Names are compared exactly, not as prefixes or case-insensitively.
    BOOST_TEST(!cookie_value("kk=1; K=2", "k").has_value());
}

BOOST_AUTO_TEST_CASE(malformed_pairs_are_skipped_not_fatal) {
    // A value with a space, a comma, a backslash or a stray quote is not cookie-octets: skipped, and the
    // next well-formed pair of the same name is taken.
    BOOST_TEST(cookie_value("k=a b; k=good", "k").value() == "good");
    BOOST_TEST(cookie_value("k=a,b; k=good", "k").value() == "good");
    BOOST_TEST(cookie_value("k=a\\b; k=good", "k").value() == "good");
    BOOST_TEST(cookie_value("k=\"open; k=good", "k").value() == "good");
    BOOST_TEST(cookie_value("garbage; ;;=x; k=good", "k").value() == "good");
    BOOST_TEST(cookie_value(std::string("k=\x80\xff; k=good"), "k").value() == "good");
    BOOST_TEST(!cookie_value("k=a b", "k").has_value());
}

BOOST_AUTO_TEST_CASE(every_cookie_field_is_read) {
    const auto head = head_with({{"Cookie", "a=1"}, {"Cookie", "storefront_refresh=r"}});
    BOOST_TEST(request_cookie(head, refresh_cookie_name).value() == "r");
    BOOST_TEST(!request_cookie(head, access_cookie_name).has_value());
}

BOOST_AUTO_TEST_CASE(authorization_wins_over_the_cookie) {
    const auto both =
        head_with({{"Authorization", "Bearer header.token"}, {"Cookie", "storefront_access=cookie"}});
    BOOST_TEST(access_token_of(both).token == "header.token");
    BOOST_TEST(!access_token_of(both).from_cookie);
    // Another scheme, or an empty header, still wins: no token at all, never the cookie.
    const auto basic = head_with({{"Authorization", "Basic dTpw"}, {"Cookie", "storefront_access=cookie"}});
    BOOST_TEST(access_token_of(basic).token.empty());
    const auto cookie_only = head_with({{"Cookie", "storefront_access=cookie"}});
    BOOST_TEST(access_token_of(cookie_only).token == "cookie");
    BOOST_TEST(access_token_of(cookie_only).from_cookie);
    BOOST_TEST(access_token_of(head_with({{"authorization", "bearer  lower"}})).token == "lower");
    BOOST_TEST(access_token_of(head_with({})).token.empty());
}

BOOST_AUTO_TEST_CASE(set_cookie_lines_carry_the_attributes) {
    BOOST_TEST(
        set_cookie_value("n", "v.w", {std::chrono::seconds(3600), false}) ==
        "n=v.w; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax"
    );
    BOOST_TEST(
        set_cookie_value("n", "", {std::chrono::seconds(0), true}) ==
        "n=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure"
    );
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cors_origins_unit)

BOOST_AUTO_TEST_CASE(exact_origins_and_port_wildcards) {
    const auto allowed =
        cors_origins::parse(" https://shop.example , http://localhost:*,http://127.0.0.1:5173");
    BOOST_TEST(!allowed.empty());
    for (const char* yes :
         {"https://shop.example", "http://localhost:3000", "http://localhost", "http://127.0.0.1:5173"}) {
        BOOST_TEST_CONTEXT(yes) {
            BOOST_TEST(allowed.allows(yes));
        }
    }
    for (const char* no :
         {"http://shop.example",
          "https://shop.example:443",
          "https://shop.example.evil",
          "https://evil.shop.example",
          "http://localhost.evil:3000",
          "http://localhost:3000/",
          "http://localhost:abc",
          "https://localhost:3000",
          "http://127.0.0.1:5174",
          "null",
          "",
          "HTTPS://shop.example"}) {
        BOOST_TEST_CONTEXT(no) {
            BOOST_TEST(!allowed.allows(no));
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_origins_are_refused_at_start) {
    for (const char* bad :
         {"*",
          "shop.example",
          "ftp://shop.example",
          "https://shop.example/path",
          "https://Shop.example",
          "http://localhost:*x",
          "https://user@shop.example",
          "http://localhost:"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_CHECK_THROW((void)cors_origins::parse(bad), std::invalid_argument);
        }
    }
    BOOST_TEST(cors_origins::parse("").empty());
    BOOST_TEST(!cors_origins().allows("http://localhost:3000"));
}

BOOST_AUTO_TEST_CASE(answers_echo_only_allowed_origins) {
    const auto allowed = cors_origins::parse("http://localhost:*");
    response r;
    apply_cors(allowed, head_with({{"Origin", "http://localhost:3000"}}), r);
    BOOST_TEST(r.cors_origin == "http://localhost:3000");
    BOOST_TEST(r.vary_origin);
    response other;
    apply_cors(allowed, head_with({{"Origin", "http://evil.example"}}), other);
    BOOST_TEST(other.cors_origin.empty());
    BOOST_TEST(other.vary_origin);
    response by_default;
    apply_cors(cors_origins(), head_with({{"Origin", "http://localhost:3000"}}), by_default);
    BOOST_TEST(by_default.cors_origin.empty());
    BOOST_TEST(!by_default.vary_origin);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(csrf_unit)

BOOST_AUTO_TEST_CASE(cookie_requests_need_a_known_origin) {
    const auto allowed = cors_origins::parse("http://localhost:*");
    const auto passes = [&](std::initializer_list<std::pair<std::string, std::string>> fields,
                            bool secure = false) {
        return !refuse_cross_site(head_with(fields), allowed, secure).has_value();
    };
    BOOST_TEST(passes({{"Origin", "http://127.0.0.1:8080"}}));         // same origin (Host)
    BOOST_TEST(!passes({{"Origin", "http://127.0.0.1:8080"}}, true));  // not the https origin
    BOOST_TEST(passes({{"Origin", "https://127.0.0.1:8080"}}, true));
    BOOST_TEST(passes({{"Origin", "http://localhost:5173"}}));  // allowed
    BOOST_TEST(!passes({{"Origin", "http://127.0.0.1:9999"}}));
    BOOST_TEST(!passes({{"Origin", "null"}}));
    // Origin decides even when Sec-Fetch-Site would pass.
    BOOST_TEST(!passes({{"Origin", "http://evil.example"}, {"Sec-Fetch-Site", "same-origin"}}));
    BOOST_TEST(passes({{"Sec-Fetch-Site", "same-origin"}}));
    BOOST_TEST(passes({{"Sec-Fetch-Site", "none"}}));
    BOOST_TEST(!passes({{"Sec-Fetch-Site", "same-site"}}));
    BOOST_TEST(!passes({{"Sec-Fetch-Site", "cross-site"}}));
    BOOST_TEST(passes({{"Referer", "http://localhost:3000/app/page?x=1"}}));
    BOOST_TEST(!passes({{"Referer", "http://evil.example/"}}));
    BOOST_TEST(!passes({}));  // nothing tells where it comes from
    const auto refused = refuse_cross_site(head_with({}), allowed, false);
    BOOST_REQUIRE(refused.has_value());
    BOOST_TEST(static_cast<unsigned>(refused->status) == 403U);
}

BOOST_AUTO_TEST_CASE(only_cookie_credentials_need_the_check) {
    BOOST_TEST(cookie_authenticated(head_with({{"Cookie", "storefront_access=t"}})));
    BOOST_TEST(cookie_authenticated(head_with({{"Cookie", "storefront_refresh=t"}})));
    BOOST_TEST(
        !cookie_authenticated(head_with({{"Cookie", "storefront_access=t"}, {"Authorization", "Bearer x"}}))
    );
    BOOST_TEST(!cookie_authenticated(head_with({{"Cookie", "other=t; storefront_access="}})));
    BOOST_TEST(!cookie_authenticated(head_with({})));
    BOOST_TEST(state_changing(http::verb::post));
    BOOST_TEST(state_changing(http::verb::delete_));
    BOOST_TEST(!state_changing(http::verb::get));
    BOOST_TEST(!state_changing(http::verb::options));
}

BOOST_AUTO_TEST_CASE(forwarded_https_is_read_from_either_header) {
    BOOST_TEST(forwarded_https(head_with({{"X-Forwarded-Proto", "https"}})));
    BOOST_TEST(forwarded_https(head_with({{"X-Forwarded-Proto", "HTTPS, http"}})));
    BOOST_TEST(!forwarded_https(head_with({{"X-Forwarded-Proto", "http"}})));
    BOOST_TEST(forwarded_https(head_with({{"Forwarded", "for=1.2.3.4;proto=https"}})));
    BOOST_TEST(
        forwarded_https(head_with({{"Forwarded", "for=1.2.3.4; proto=\"https\", for=5.6.7.8;proto=http"}}))
    );
    BOOST_TEST(!forwarded_https(head_with({{"Forwarded", "for=1.2.3.4;proto=http"}})));
    BOOST_TEST(!forwarded_https(head_with({})));
}

BOOST_AUTO_TEST_SUITE_END()
