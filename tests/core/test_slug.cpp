// Tests for URL slug generation, including accent folding and malformed UTF-8.
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/slug.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(slug)

BOOST_AUTO_TEST_CASE(slug_table) {
    struct row {
        std::string title;
        std::string expected;
    };
    const row rows[] = {
        {"T-Shirt (XL)/Blue", "t-shirt-xl-blue"},
        {"Café au lait", "cafe-au-lait"},
        {"Elegant Patent Leather Peep-Toe Pumps", "elegant-patent-leather-peep-toe-pumps"},
        {"Sleek White & Orange Wireless Gaming Controller", "sleek-white-orange-wireless-gaming-controller"},
        {"Already-a-slug", "already-a-slug"},
        {"  --Hello, World!--  ", "hello-world"},
        {"***", ""},
        {"", ""},
        {"   ", ""},
        {"Model 3000 v2", "model-3000-v2"},
        {"a__b..c", "a-b-c"},
        {"ÀÉÎÕÜ àéîõü", "aeiou-aeiou"},
        {"Ñandú Crème Brûlée", "nandu-creme-brulee"},
        {"Straße", "strasse"},
        {"Æsir Œuvre æ œ", "aesir-oeuvre-ae-oe"},
        {"Smørrebrød Ølstue", "smorrebrod-olstue"},
        {"Façade Ça", "facade-ca"},
        {"Łódź Żółć Šťastný Ğ", "lodz-zolc-stastny-g"},
        {"Þór Ðað", "thor-dad"},
        {"3×4 ÷ 2", "3-4-2"},  // multiplication and division signs separate
        {"Ÿes ÿ", "yes-y"},
        {"日本 Tea", "tea"},
        {"Tea 日本 Cup", "tea-cup"},
        {"Smile 😀 Face", "smile-face"},
        {"ok\xFF"
         "bad",
         "ok-bad"},          // invalid lead byte
        {"ok\xC3", "ok"},    // truncated sequence at the end
        {"a\xC3(b", "a-b"},  // bad continuation byte
        {"a\xC0\xAF"
         "b",
         "a-b"},  // overlong '/'
        {"a\xED\xA0\x80"
         "b",
         "a-b"},  // UTF-16 surrogate
        {"a\xF4\x90\x80\x80"
         "b",
         "a-b"},               // above U+10FFFF
        {"\x80\x80\x80", ""},  // stray continuation bytes only
        {std::string("nul\0byte", 8), "nul-byte"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("title: \"" << r.title << "\"") {
            BOOST_TEST(make_slug(r.title) == r.expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(every_byte_value_is_safe) {
    // Any byte string yields only [a-z0-9-], with no leading, trailing or doubled '-'.
    std::string all;
    for (int b = 0; b < 256; ++b) {
        all.push_back(static_cast<char>(b));
        all.push_back('x');
    }
    const std::string s = make_slug(all);
    BOOST_TEST(!s.empty());
    BOOST_TEST(s.front() != '-');
    BOOST_TEST(s.back() != '-');
    BOOST_TEST(s.find("--") == std::string::npos);
    for (const char c : s) {
        BOOST_TEST_CONTEXT("char code " << static_cast<int>(static_cast<unsigned char>(c))) {
            BOOST_TEST(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
