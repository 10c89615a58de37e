// Tests for e-mail normalisation (trim, lower-case) and the syntax check behind it.
#include <optional>
#include <set>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/email.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(email)

BOOST_AUTO_TEST_CASE(valid_and_normalised) {
    struct row {
        std::string input;
        std::string expected;
    };
    const row rows[] = {
        {"john@mail.com", "john@mail.com"},
        {"John@Mail.COM", "john@mail.com"},
        {"  admin@mail.com  ", "admin@mail.com"},
        {"\tuser@example.org\r\n", "user@example.org"},
        {"first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk"},
        {"o'brien_x-y@my-host.io", "o'brien_x-y@my-host.io"},
        {"a@b.cd", "a@b.cd"},
        {"user123@123mail.com", "user123@123mail.com"},
        {std::string(64, 'a') + "@example.com", std::string(64, 'a') + "@example.com"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("input: \"" << r.input << "\"") {
            const std::optional<std::string> normalized = normalize_email(r.input);
            BOOST_TEST_REQUIRE(normalized.has_value());
            BOOST_TEST(*normalized == r.expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(length_limit) {
    // 64 + 1 + (63 + 1 + 63 + 1 + filler + 4) bytes, every part within its own limit.
    const auto address = [](std::size_t filler) {
        const std::string label(63, 'b');
        return std::string(64, 'a') + "@" + label + "." + label + "." + std::string(filler, 'c') + ".com";
    };
    const std::string longest = address(57);
    BOOST_TEST_REQUIRE(longest.size() == 254u);
    BOOST_TEST(normalize_email(longest).value() == longest);
    BOOST_TEST(normalize_email("  " + longest + "  ").value() == longest);  // trimming happens first
    BOOST_TEST(!normalize_email(address(58)).has_value());
}

BOOST_AUTO_TEST_CASE(invalid) {
    const std::string inputs[] = {
        "",
        "   ",
        "plainaddress",
        "@mail.com",
        "john@",
        "john@@mail.com",
        "jo@hn@mail.com",
        "john@mail",
        "john@mail.c",
        "john@mail.c0m",
        "john@.mail.com",
        "john@mail.com.",
        "john@mail..com",
        "john@-mail.com",
        "john@mail-.com",
        "john@ma_il.com",
        "john doe@mail.com",
        "john@mail .com",
        ".john@mail.com",
        "john.@mail.com",
        "jo..hn@mail.com",
        "\"john\"@mail.com",
        "john(x)@mail.com",
        "john@[127.0.0.1]",
        "jöhn@mail.com",
        "john@mäil.com",
        std::string("jo\0hn@mail.com", 14),
        "jo\x01hn@mail.com",
        std::string(65, 'a') + "@example.com",
        "a@" + std::string(64, 'b') + ".com",
    };
    for (const auto& input : inputs) {
        BOOST_TEST_CONTEXT("input: \"" << input << "\"") {
            BOOST_TEST(!normalize_email(input).has_value());
        }
    }
}

BOOST_AUTO_TEST_CASE(availability_uses_normalised_form) {
    const std::set<std::string> taken{"john@mail.com"};
    const auto is_taken = [&](const std::string& e) { return taken.count(e) > 0; };
    BOOST_TEST(!is_email_available(normalize_email(" John@Mail.com").value(), is_taken));
    BOOST_TEST(is_email_available(normalize_email("jane@mail.com").value(), is_taken));
}

BOOST_AUTO_TEST_SUITE_END()
