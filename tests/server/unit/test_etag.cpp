// Tests for strong ETags (format, known SHA-1 prefixes, sensitivity to every byte) and If-None-Match
// matching: lists, `*`, weak comparison, spaces, and malformed values that match nothing.
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "server/codec/etag.hpp"

using namespace storefront::server;

BOOST_AUTO_TEST_SUITE(etag_codec)

BOOST_AUTO_TEST_CASE(known_values) {
    // The first 8 bytes of SHA-1 ("", "abc", FIPS 180 examples).
    BOOST_TEST(strong_etag("") == "\"da39a3ee5e6b4b0d\"");
    BOOST_TEST(strong_etag("abc") == "\"a9993e364706816a\"");
    BOOST_TEST(strong_etag(std::string(1000, 'x')) == strong_etag(std::string(1000, 'x')));
}

BOOST_AUTO_TEST_CASE(every_byte_counts) {
    const std::string body = R"([{"id":1,"title":"Classic Red Shirt","price":44}])";
    const std::string tag = strong_etag(body);
    BOOST_TEST(tag.size() == 18u);
    BOOST_TEST(tag.front() == '"');
    BOOST_TEST(tag.back() == '"');
    BOOST_TEST(tag.find_first_not_of("0123456789abcdef", 1) == 17u);
    for (std::size_t i = 0; i < body.size(); ++i) {
        BOOST_TEST_CONTEXT("byte " << i) {
            std::string changed = body;
            changed[i] = static_cast<char>(changed[i] ^ 0x01);
            BOOST_TEST(strong_etag(changed) != tag);
        }
    }
    BOOST_TEST(strong_etag(body + " ") != tag);
    BOOST_TEST(strong_etag(body.substr(1)) != tag);
}

// Small bodies are tagged from a per-thread memo: whatever was asked before, and however the memo's slots
// were reused, a body's tag is its SHA-1 tag.
BOOST_AUTO_TEST_CASE(remembered_tags_stay_exact) {
    BOOST_TEST(strong_etag("abc") == "\"a9993e364706816a\"");
    BOOST_TEST(strong_etag("abc") == "\"a9993e364706816a\"");  // from the memo
    std::vector<std::string> bodies;
    for (int i = 0; i < 500; ++i) {
        bodies.push_back(R"({"id":)" + std::to_string(i) + R"(,"title":"x"})");
    }
    std::vector<std::string> first;
    for (const auto& b : bodies) {
        first.push_back(strong_etag(b));
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        BOOST_TEST(strong_etag(bodies[i]) == first[i]);  // evicted or not, the same tag
        if (i > 0) {
            BOOST_TEST(first[i] != first[i - 1]);
        }
    }
    BOOST_TEST(strong_etag("abc") == "\"a9993e364706816a\"");
    BOOST_TEST(strong_etag("abd") != strong_etag("abc"));
    const std::string big(10000, 'y');  // past the memo's size: hashed every time, same tag
    BOOST_TEST(strong_etag(big) == strong_etag(std::string(10000, 'y')));
}

BOOST_AUTO_TEST_CASE(if_none_match_table) {
    const std::string etag = "\"abc123\"";
    struct row {
        std::string header;
        bool matches;
    };
    const std::vector<row> rows = {
        // Matches: the tag alone, weak, in a list, `*`, with spaces.
        {"\"abc123\"", true},
        {"W/\"abc123\"", true},
        {"*", true},
        {" * ", true},
        {"\"x\", \"abc123\"", true},
        {"\"abc123\",\"x\"", true},
        {"W/\"x\" , W/\"abc123\"", true},
        {"  \"abc123\"  ", true},
        {"\t\"abc123\"\t,\t\"y\"", true},
        {"\"x\",,\"abc123\"", true},    // an empty list element
        {", \"abc123\" ,", true},       // leading and trailing commas
        {"\"a,b\", \"abc123\"", true},  // a comma inside a tag is part of it
        // No match: other tags, case, prefixes, substrings.
        {"", false},
        {"   ", false},
        {",", false},
        {"\"abc\"", false},
        {"\"ABC123\"", false},
        {"\"abc1234\"", false},
        {"\"bc123\"", false},
        {"\"x\", \"y\"", false},
        {"\"\"", false},
        // Malformed: matches nothing, even when the tag appears.
        {"abc123", false},           // unquoted
        {"\"abc123\" junk", false},  // trailing text
        {"\"abc123\"\"x\"", false},  // two tags without a comma
        {"\"abc123", false},         // no closing quote
        {"abc123\"", false},
        {"w/\"abc123\"", false},   // the weak prefix is case-sensitive
        {"W/ \"abc123\"", false},  // no space after W/
        {"W/abc123", false},
        {"\"abc 123\"", false},          // a space inside the quotes
        {"\"abc123\", \"a b\"", false},  // the bad tag spoils the list
        {"*, \"abc123\"", false},        // `*` stands alone
        {"\"abc123\", *", false},
        {"**", false},
        {"* \"abc123\"", false},
        {std::string("\"abc\x7f\"", 6) + ", \"abc123\"", false},  // DEL is not an etagc
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("If-None-Match: " << r.header) {
            BOOST_TEST(if_none_match_matches(r.header, etag) == r.matches);
        }
    }
}

BOOST_AUTO_TEST_CASE(weak_comparison_both_sides) {
    // The stored tag may itself be weak; comparison ignores W/ on either side.
    BOOST_TEST(if_none_match_matches("\"v1\"", "W/\"v1\""));
    BOOST_TEST(if_none_match_matches("W/\"v1\"", "W/\"v1\""));
    BOOST_TEST(!if_none_match_matches("W/\"v2\"", "W/\"v1\""));
    // Non-ASCII bytes (obs-text) are allowed inside a tag.
    BOOST_TEST(if_none_match_matches("\"caf\xc3\xa9\"", "\"caf\xc3\xa9\""));
}

BOOST_AUTO_TEST_CASE(round_trip_with_strong_etag) {
    const std::string body(5000, 'p');
    const std::string tag = strong_etag(body);
    BOOST_TEST(if_none_match_matches(tag, tag));
    BOOST_TEST(if_none_match_matches("W/" + tag, tag));
    BOOST_TEST(if_none_match_matches("\"old\", " + tag, tag));
    BOOST_TEST(!if_none_match_matches(strong_etag(body + "!"), tag));
}

BOOST_AUTO_TEST_SUITE_END()
