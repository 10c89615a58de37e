// Property test of the money and cart rules: many random carts (fixed seed, so a failure repeats) and
// random amounts; totals never negative, discount never above subtotal, lines sum to the subtotal, the
// limits always hold, and cents round-trip through their text and a double.
#include <charconv>
#include <map>
#include <random>

#include <boost/test/unit_test.hpp>

#include "core/cart_rules.hpp"
#include "core/money.hpp"
#include "core/shipping_rule.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(shop_properties)

BOOST_AUTO_TEST_CASE(random_carts_keep_the_invariants) {
    std::mt19937_64 random(42);
    const auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(random);
    };
    const std::optional<std::string> coupons[] = {std::nullopt, "SAVE10", "TAKE5", "NOPE"};
    for (int round = 0; round < 2000; ++round) {
        std::map<std::int64_t, catalogue_entry> catalogue;
        for (std::int64_t id = 1; id <= 60; ++id) {
            // Mostly shop prices, sometimes the extremes.
            const cents price = pick(0, 9) == 0 ? pick(0, max_amount_cents) : pick(0, 100'000);
            catalogue[id] = {"p" + std::to_string(id), price};
        }
        std::vector<cart_line> lines;
        for (int op = 0; op < 80; ++op) {
            const std::int64_t id = pick(1, 70);  // some products are not in the catalogue
            const auto quantity = static_cast<std::int32_t>(pick(-5, 120));
            const auto before = lines;
            std::optional<cart_problem> problem;
            switch (pick(0, 3)) {
                case 0:
                case 1:
                    problem = add_to_cart(lines, id, quantity);
                    break;
                case 2:
                    problem = set_cart_quantity(lines, id, quantity);
                    break;
                default:
                    problem = remove_from_cart(lines, id);
            }
            if (problem) {
                BOOST_TEST_REQUIRE((lines == before));  // a refused change changes nothing
            }
            BOOST_TEST_REQUIRE(lines.size() <= max_cart_lines);
            for (const auto& l : lines) {
                BOOST_TEST_REQUIRE((l.quantity >= min_line_quantity && l.quantity <= max_line_quantity));
            }
        }
        const auto& coupon = coupons[pick(0, 3)];
        const auto t = price_cart(lines, coupon, [&](std::int64_t id) -> std::optional<catalogue_entry> {
            auto it = catalogue.find(id);
            return it == catalogue.end() ? std::nullopt : std::optional(it->second);
        });
        cents sum = 0;
        std::int64_t quantity = 0;
        for (const auto& l : t.lines) {
            BOOST_TEST_REQUIRE(l.line_total == l.price * l.quantity);
            sum += l.line_total;
            quantity += l.quantity;
        }
        BOOST_TEST_REQUIRE(sum == t.subtotal);
        BOOST_TEST_REQUIRE(quantity == t.total_quantity);
        BOOST_TEST_REQUIRE(t.discount >= 0);
        BOOST_TEST_REQUIRE(t.discount <= t.subtotal);
        BOOST_TEST_REQUIRE(t.total == t.subtotal - t.discount);
        BOOST_TEST_REQUIRE(t.total >= 0);
        BOOST_TEST_REQUIRE(t.shipping == shipping_for(t.total, !t.lines.empty()));
        BOOST_TEST_REQUIRE((parse_cents(format_cents(t.total)) == std::optional<cents>(t.total)));
    }
}

BOOST_AUTO_TEST_CASE(amounts_round_trip) {
    std::mt19937_64 random(7);
    std::uniform_int_distribution<cents> amount(0, max_amount_cents);
    for (int i = 0; i < 100'000; ++i) {
        const cents c = i < 1000 ? i : amount(random);
        const auto text = format_cents(c);
        BOOST_TEST_REQUIRE((parse_cents(text) == std::optional<cents>(c)));
        BOOST_TEST_REQUIRE(price_to_cents(cents_to_double(c)) == c);
        char buffer[64];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, cents_to_double(c)).ptr;
        BOOST_TEST_REQUIRE(
            (parse_cents(std::string_view(buffer, static_cast<std::size_t>(end - buffer))) == c)
        );
    }
}

BOOST_AUTO_TEST_SUITE_END()
