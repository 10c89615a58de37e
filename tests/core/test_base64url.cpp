// base64url: RFC 4648 test vectors (in the url-safe alphabet, unpadded) and strict refusals.
#include <string>
#include <string_view>

#include <boost/test/unit_test.hpp>

#include "core/base64url.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(base64url)

BOOST_AUTO_TEST_CASE(rfc4648_vectors_round_trip) {
    struct vector {
        std::string_view bytes;
        std::string_view text;
    };
    const vector vectors[] = {
        {"", ""},
        {"f", "Zg"},
        {"fo", "Zm8"},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg"},
        {"fooba", "Zm9vYmE"},
        {"foobar", "Zm9vYmFy"},
        {"\xfb\xff", "-_8"},
        {"\xff\xff\xfe", "___-"},
        {std::string_view("\x00\x01\x02", 3), "AAEC"},
    };
    for (const auto& v : vectors) {
        BOOST_TEST_CONTEXT("bytes " << std::string(v.text)) {
            BOOST_TEST(base64url_encode(v.bytes) == v.text);
            const auto decoded = base64url_decode(v.text);
            BOOST_TEST_REQUIRE(decoded.has_value());
            BOOST_TEST(*decoded == v.bytes);
        }
    }
}

BOOST_AUTO_TEST_CASE(all_byte_values_round_trip) {
    std::string bytes;
    for (int i = 0; i < 256; ++i) {
        bytes.push_back(static_cast<char>(i));
        const auto decoded = base64url_decode(base64url_encode(bytes));
        BOOST_TEST_REQUIRE(decoded.has_value());
        BOOST_TEST(*decoded == bytes);
    }
}

BOOST_AUTO_TEST_CASE(refuses_non_canonical_or_foreign_text) {
    const std::string_view refused[] = {
        "Zg==",      // padding
        "Zm8=",      // padding
        "Z",         // impossible length
        "Zm9vY",     // impossible length
        "Zh",        // non-zero trailing bits (canonical form is "Zg")
        "Zm9",       // non-zero trailing bits (canonical form is "Zm8")
        "Zm+v",      // standard alphabet, not url-safe
        "Zm/v",      // standard alphabet, not url-safe
        "Zm9v\n",    // whitespace
        "Zm 9v",     // whitespace
        "Zm9v.",     // separator
        "\xc3\xa9",  // non-ASCII
        std::string_view("Zm\0v", 4),
    };
    for (const auto text : refused) {
        BOOST_TEST_CONTEXT("text " << std::string(text)) {
            BOOST_TEST(!base64url_decode(text).has_value());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(base64_standard)

BOOST_AUTO_TEST_CASE(decodes_padded_and_unpadded_rfc4648_vectors) {
    const std::vector<std::pair<std::string, std::string>> table{
        {"", ""},
        {"Zg==", "f"},
        {"Zm8=", "fo"},
        {"Zm9v", "foo"},
        {"Zm9vYg==", "foob"},
        {"Zm9vYmE=", "fooba"},
        {"Zm9vYmFy", "foobar"},
        {"Zm9vYg", "foob"},
        {"+/8=", "\xfb\xff"},
        {"cGV0c3RvcmUtY2xpZW50OnBldHN0b3JlLXNlY3JldA==", "petstore-client:petstore-secret"},
    };
    for (const auto& [text, bytes] : table) {
        BOOST_TEST_CONTEXT(text) {
            const auto decoded = storefront::core::base64_decode(text);
            BOOST_TEST_REQUIRE(decoded.has_value());
            BOOST_TEST(*decoded == bytes);
        }
    }
}

BOOST_AUTO_TEST_CASE(refuses_bad_alphabet_padding_and_lengths) {
    for (const std::string text :
         {"Zg=", "Z===", "Zm9v=", "Zg==Zg==", "Zh==", "-_8=", "Zm 9v", "Z", "=Zm9"}) {
        BOOST_TEST_CONTEXT(text) {
            BOOST_TEST(!storefront::core::base64_decode(text).has_value());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
