// flat_json: the strict reader (a table of accepted and refused texts) and the string escaper.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <boost/test/unit_test.hpp>

#include "core/flat_json.hpp"

using namespace storefront::core;

namespace {

// Built with += since GCC 12 warns (-Wrestrict, a false positive) on "k" + std::to_string(i).
std::string key(int i) {
    std::string k = "k";
    k += std::to_string(i);
    return k;
}

std::string members(int count) {
    std::string text = "{";
    for (int i = 0; i < count; ++i) {
        text += i == 0 ? "\"" : ",\"";
        text += key(i) + "\":" + std::to_string(i);
    }
    return text + "}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(flat_json)

BOOST_AUTO_TEST_CASE(accepts_flat_objects) {
    struct row {
        std::string text;
        flat_object expected;
    };
    const row rows[] = {
        {"{}", {}},
        {" \t\r\n{ \t\r\n} \t\r\n", {}},
        {R"({"a":"b"})", {{"a", std::string("b")}}},
        {R"({ "a" : 1 , "b" : true , "c" : false })", {{"a", std::int64_t{1}}, {"b", true}, {"c", false}}},
        {R"({"n":-0})", {{"n", std::int64_t{0}}}},
        {R"({"n":0})", {{"n", std::int64_t{0}}}},
        {R"({"n":9223372036854775807})", {{"n", std::numeric_limits<std::int64_t>::max()}}},
        {R"({"n":-9223372036854775808})", {{"n", std::numeric_limits<std::int64_t>::min()}}},
        {R"({"s":"\"\\\/\b\f\n\r\t"})", {{"s", std::string("\"\\/\b\f\n\r\t")}}},
        {R"({"s":"\u0041\u00e9\u20AC"})", {{"s", std::string("A\xc3\xa9\xe2\x82\xac")}}},
        {R"({"s":"\ud83d\ude00"})", {{"s", std::string("\xf0\x9f\x98\x80")}}},
        {R"({"s":"\u0000"})", {{"s", std::string(1, '\0')}}},
        {"{\"s\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"}",
         {{"s", std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf")}}},
        {"{\"s\":\"\x7f\"}", {{"s", std::string("\x7f")}}},
        {R"({"":""})", {{"", std::string()}}},
        {R"({"a":"1","A":"2"})", {{"a", std::string("1")}, {"A", std::string("2")}}},
        {members(32),
         [] {
             flat_object o;
             for (int i = 0; i < 32; ++i) {
                 o.emplace(key(i), std::int64_t{i});
             }
             return o;
         }()},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("text " << r.text) {
            const auto parsed = parse_flat_json(r.text);
            BOOST_TEST_REQUIRE(parsed.has_value());
            BOOST_TEST((*parsed == r.expected));
        }
    }
}

BOOST_AUTO_TEST_CASE(refuses_everything_else) {
    const std::string refused[] = {
        "",
        " ",
        "[]",
        "\"a\"",
        "1",
        "{",
        "}",
        R"({"a":1}x)",
        R"({"a":1}{})",
        R"({"a":1,})",
        R"({,"a":1})",
        R"({"a" 1})",
        R"({"a":})",
        R"({a:1})",
        R"({'a':1})",
        R"({"a":null})",
        R"({"a":{}})",
        R"({"a":[1]})",
        R"({"a":1.0})",
        R"({"a":1e3})",
        R"({"a":1E3})",
        R"({"a":-})",
        R"({"a":+1})",
        R"({"a":01})",
        R"({"a":-01})",
        R"({"a":.5})",
        R"({"a":9223372036854775808})",
        R"({"a":-9223372036854775809})",
        R"({"a":True})",
        R"({"a":tru})",
        R"({"a":1,"a":2})",
        R"({"a":1,"\u0061":2})",
        R"({"a":"\x"})",
        R"({"a":"\u12"})",
        R"({"a":"\u12G4"})",
        R"({"a":"\ud83d"})",
        R"({"a":"\ud83dx"})",
        R"({"a":"\ud83d\u0041"})",
        R"({"a":"\ude00"})",
        R"({"a":"\ude00\ud83d"})",
        R"({"a":"unterminated})",
        "{\"a\":\"tab\there\"}",
        "{\"a\":\"nl\nhere\"}",
        std::string("{\"a\":\"\0\"}", 9),
        "{\"a\":\"\xc3\"}",              // truncated sequence
        "{\"a\":\"\x80\"}",              // stray continuation byte
        "{\"a\":\"\xc0\xaf\"}",          // overlong
        "{\"a\":\"\xe0\x80\xaf\"}",      // overlong
        "{\"a\":\"\xed\xa0\x80\"}",      // encoded surrogate
        "{\"a\":\"\xf4\x90\x80\x80\"}",  // above U+10FFFF
        "{\"a\":\"\xff\"}",
        "{\"\xc3\":1}",    // invalid UTF-8 in a key
        "\xef\xbb\xbf{}",  // byte order mark
        "{\"a\":1}\f",     // form feed is not JSON whitespace
        members(33),
    };
    for (const auto& text : refused) {
        BOOST_TEST_CONTEXT("text " << text) {
            BOOST_TEST(!parse_flat_json(text).has_value());
        }
    }
}

BOOST_AUTO_TEST_CASE(writes_escaped_strings) {
    struct row {
        std::string input;
        std::string_view expected;
    };
    const row rows[] = {
        {"", R"("")"},
        {"plain", R"("plain")"},
        {"q\"b\\s/", R"("q\"b\\s/")"},
        {"\b\f\n\r\t", R"("\b\f\n\r\t")"},
        {std::string("\0\x01\x1f", 3), R"("\u0000\u0001\u001f")"},
        {"\x7f \xc3\xa9", "\"\x7f \xc3\xa9\""},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("input " << r.input) {
            BOOST_TEST(write_json_string(r.input) == r.expected);
            const auto parsed = parse_flat_json("{\"k\":" + write_json_string(r.input) + "}");
            BOOST_TEST_REQUIRE(parsed.has_value());
            BOOST_TEST(std::get<std::string>(parsed->at("k")) == r.input);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(json_string_escaping)

// The escaper checks 8 bytes at a time: every special byte at every offset of a long string, next to
// UTF-8 bytes (>= 0x80, never escaped), must come out as a byte-at-a-time reference would write it.
BOOST_AUTO_TEST_CASE(word_at_a_time_matches_byte_at_a_time) {
    const auto reference = [](std::string_view text) {
        std::string out = "\"";
        for (const char ch : text) {
            const auto c = static_cast<unsigned char>(ch);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += ch;
            } else if (c < 0x20) {
                static constexpr char hex[] = "0123456789abcdef";
                const std::string named = c == '\b'   ? "\\b"
                                          : c == '\f' ? "\\f"
                                          : c == '\n' ? "\\n"
                                          : c == '\r' ? "\\r"
                                          : c == '\t' ? "\\t"
                                                      : "";
                out += named.empty() ? std::string{'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]} : named;
            } else {
                out += ch;
            }
        }
        return out + "\"";
    };
    for (const char special : {'"', '\\', '\n', '\x01', '\x1f', '\x7f', '\xc3', '\xff', ' '}) {
        for (std::size_t at = 0; at < 20; ++at) {
            std::string text = "abcdefghijklmnopqrstu\xc3\xa9";
            text[at] = special;
            BOOST_TEST_CONTEXT(static_cast<int>(static_cast<unsigned char>(special)) << " at " << at) {
                std::string appended = "x";
                storefront::core::append_json_string(appended, text);
                BOOST_TEST(appended == "x" + reference(text));
                BOOST_TEST(storefront::core::write_json_string(text) == reference(text));
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
