// Tests for money in cents: exact parsing of JSON number text, catalogue prices and two-decimal output.
#include <charconv>
#include <limits>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/money.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(money)

BOOST_AUTO_TEST_CASE(parses_json_numbers_exactly) {
    struct row {
        std::string text;
        std::optional<cents> expected;
    };
    const row rows[] = {
        {"0", 0},
        {"-0", 0},
        {"12", 1200},
        {"12.5", 1250},
        {"12.50", 1250},
        {"0.30", 30},
        {"0.05", 5},
        {"19.99", 1999},
        {"1.2e1", 1200},
        {"1E2", 10000},
        {"125e-2", 125},
        {"1.500000", 150},
        {"1000000000", 100'000'000'000},
        {"0.00e9", 0},
        {"1.005", {}},
        {"0.001", {}},
        {"-1", {}},
        {"01", {}},
        {"1.", {}},
        {".5", {}},
        {"1e", {}},
        {"", {}},
        {"abc", {}},
        {"1 ", {}},
        {"10000000000000", max_amount_cents},
        {"10000000000000.01", {}},
        {"1e16", {}},
        {"1e400000", {}},
        {"0.30000000000000004", {}},
        {"1e-400000", {}},
        {"+1", {}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.text) {
            BOOST_TEST((parse_cents(r.text) == r.expected));
        }
    }
}

BOOST_AUTO_TEST_CASE(catalogue_prices_round_half_up_on_their_decimal_text) {
    BOOST_TEST(price_to_cents(19.99) == 1999);
    BOOST_TEST(price_to_cents(0.1 + 0.2) == 30);  // 0.30000000000000004
    BOOST_TEST(price_to_cents(1.005) == 101);     // shortest text "1.005": half up
    BOOST_TEST(price_to_cents(1.004) == 100);
    BOOST_TEST(price_to_cents(1e-7) == 0);
    BOOST_TEST(price_to_cents(0.005) == 1);
    BOOST_TEST(price_to_cents(-3) == 0);
    BOOST_TEST(price_to_cents(1e300) == max_amount_cents);
    BOOST_TEST(price_to_cents(1e9) == 100'000'000'000);
    BOOST_TEST(price_to_cents(1e13) == max_amount_cents);
    BOOST_TEST(price_to_cents(123456.78) == 12345678);
}

BOOST_AUTO_TEST_CASE(formats_with_at_most_two_decimals) {
    BOOST_TEST(format_cents(0) == "0");
    BOOST_TEST(format_cents(5) == "0.05");
    BOOST_TEST(format_cents(30) == "0.3");
    BOOST_TEST(format_cents(1000) == "10");
    BOOST_TEST(format_cents(1050) == "10.5");
    BOOST_TEST(format_cents(1999) == "19.99");
    BOOST_TEST(format_cents(-5) == "-0.05");
    BOOST_TEST(format_cents(std::numeric_limits<cents>::min()) == "-92233720368547758.08");
}

BOOST_AUTO_TEST_CASE(doubles_print_as_the_cents) {
    for (const cents c :
         {cents{0}, cents{1}, cents{30}, cents{1999}, cents{10'000'000'001}, max_amount_cents}) {
        BOOST_TEST_CONTEXT(c) {
            char buffer[64];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, cents_to_double(c)).ptr;
            BOOST_TEST((parse_cents(std::string_view(buffer, static_cast<std::size_t>(end - buffer))) == c));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
