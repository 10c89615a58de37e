// Tests for query parameter lookups and the strict integer/decimal parsers.
#include <cmath>
#include <optional>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/query.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(query)

BOOST_AUTO_TEST_CASE(count_and_single_value) {
    const query_params params{{"a", "1"}, {"b", "2"}, {"a", "3"}, {"c", ""}};
    BOOST_TEST(count_of(params, "a") == 2u);
    BOOST_TEST(count_of(params, "b") == 1u);
    BOOST_TEST(count_of(params, "z") == 0u);
    BOOST_TEST(single_value(params, "b").value() == "2");
    BOOST_TEST(single_value(params, "c").value() == "");
    BOOST_TEST(!single_value(params, "a").has_value());
    BOOST_TEST(!single_value(params, "z").has_value());
    BOOST_TEST(count_of({}, "a") == 0u);
}

BOOST_AUTO_TEST_CASE(parse_integer_table) {
    struct row {
        std::string text;
        std::optional<long long> expected;
    };
    const row rows[] = {
        {"0", 0},
        {"1", 1},
        {"-1", -1},
        {"-0", 0},
        {"007", 7},
        {"42", 42},
        {"9223372036854775807", 9223372036854775807LL},
        {"-9223372036854775808", -9223372036854775807LL - 1},
        {"9223372036854775808", std::nullopt},
        {"99999999999999999999", std::nullopt},
        {"00000000000000000001", std::nullopt},  // 20 digits
        {"", std::nullopt},
        {"-", std::nullopt},
        {"--1", std::nullopt},
        {"+1", std::nullopt},
        {" 1", std::nullopt},
        {"1 ", std::nullopt},
        {"0x1", std::nullopt},
        {"1.0", std::nullopt},
        {"1e3", std::nullopt},
        {"abc", std::nullopt},
        {std::string("1\0", 2), std::nullopt},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("text: \"" << r.text << "\"") {
            const auto got = parse_integer(r.text);
            BOOST_TEST_REQUIRE(got.has_value() == r.expected.has_value());
            if (got) {
                BOOST_TEST(*got == *r.expected);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(parse_decimal_table) {
    struct row {
        std::string text;
        std::optional<double> expected;
    };
    const row rows[] = {
        {"0", 0.0},
        {"1", 1.0},
        {"-1", -1.0},
        {"1.5", 1.5},
        {"-33.8688", -33.8688},
        {"151.2093", 151.2093},
        {".5", 0.5},
        {"5.", 5.0},
        {"1e3", 1000.0},
        {"1E-2", 0.01},
        {"2.5e+1", 25.0},
        {"", std::nullopt},
        {"-", std::nullopt},
        {".", std::nullopt},
        {"+1", std::nullopt},
        {" 1", std::nullopt},
        {"1 ", std::nullopt},
        {"inf", std::nullopt},
        {"-inf", std::nullopt},
        {"infinity", std::nullopt},
        {"nan", std::nullopt},
        {"NaN", std::nullopt},
        {"0x1p3", std::nullopt},
        {"0x10", std::nullopt},
        {"1e999", std::nullopt},
        {"1.2.3", std::nullopt},
        {"1,5", std::nullopt},
        {"e5", std::nullopt},
        {"--1", std::nullopt},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("text: \"" << r.text << "\"") {
            const auto got = parse_decimal(r.text);
            BOOST_TEST_REQUIRE(got.has_value() == r.expected.has_value());
            if (got) {
                BOOST_TEST(*got == *r.expected);
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
