// Tests for the cart rules: quantities 1-99 (also summed), 50 lines, totals from catalogue prices.
#include <map>

#include <boost/test/unit_test.hpp>

#include "core/cart_rules.hpp"
#include "core/shipping_rule.hpp"

using namespace storefront::core;

namespace {

input_value number(std::string text) {
    return {input_value::kind::number, std::move(text), {}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cart_rules)

BOOST_AUTO_TEST_CASE(quantity_is_an_integer_from_1_to_99) {
    BOOST_TEST((read_quantity(number("1"), false) == std::optional<std::int32_t>(1)));
    BOOST_TEST((read_quantity(number("99"), false) == std::optional<std::int32_t>(99)));
    BOOST_TEST((read_quantity(number("2.0"), false) == std::optional<std::int32_t>(2)));
    BOOST_TEST((read_quantity(number("1e1"), false) == std::optional<std::int32_t>(10)));
    BOOST_TEST(!read_quantity(number("0"), false));
    BOOST_TEST((read_quantity(number("0"), true) == std::optional<std::int32_t>(0)));
    BOOST_TEST(!read_quantity(number("100"), false));
    BOOST_TEST(!read_quantity(number("1.5"), false));
    BOOST_TEST(!read_quantity(number("-1"), true));
    BOOST_TEST(!read_quantity(number("1e20"), false));
    BOOST_TEST(!read_quantity({input_value::kind::string, "2", {}}, false));
    BOOST_TEST(!read_quantity({input_value::kind::boolean, "true", {}}, false));
}

BOOST_AUTO_TEST_CASE(adding_merges_lines_and_keeps_the_limit) {
    std::vector<cart_line> lines;
    BOOST_TEST(!add_to_cart(lines, 7, 60));
    BOOST_TEST(!add_to_cart(lines, 7, 39));
    BOOST_TEST(lines.size() == 1u);
    BOOST_TEST(lines[0].quantity == 99);
    BOOST_TEST((add_to_cart(lines, 7, 1) == cart_problem::quantity_out_of_range));
    BOOST_TEST(lines[0].quantity == 99);  // unchanged
    BOOST_TEST((add_to_cart(lines, 8, 0) == cart_problem::quantity_out_of_range));
    BOOST_TEST((add_to_cart(lines, 8, 100) == cart_problem::quantity_out_of_range));
    BOOST_TEST(lines.size() == 1u);
    BOOST_TEST(cart_problem_field(cart_problem::quantity_out_of_range) == "quantity");
}

BOOST_AUTO_TEST_CASE(at_most_fifty_lines) {
    std::vector<cart_line> lines;
    for (std::int64_t id = 1; id <= 50; ++id) {
        BOOST_TEST(!add_to_cart(lines, id, 1));
    }
    BOOST_TEST((add_to_cart(lines, 51, 1) == cart_problem::too_many_lines));
    BOOST_TEST(!add_to_cart(lines, 50, 2));  // an existing line still grows
    BOOST_TEST(lines.size() == 50u);
    BOOST_TEST(cart_problem_field(cart_problem::too_many_lines) == "items");
}

BOOST_AUTO_TEST_CASE(set_and_remove) {
    std::vector<cart_line> lines{{1, 2}, {2, 3}};
    BOOST_TEST(!set_cart_quantity(lines, 1, 5));
    BOOST_TEST(lines[0].quantity == 5);
    BOOST_TEST((set_cart_quantity(lines, 1, 100) == cart_problem::quantity_out_of_range));
    BOOST_TEST(!set_cart_quantity(lines, 1, 0));
    BOOST_TEST((lines == std::vector<cart_line>{{2, 3}}));
    BOOST_TEST((set_cart_quantity(lines, 9, 1) == cart_problem::line_not_found));
    BOOST_TEST((remove_from_cart(lines, 9) == cart_problem::line_not_found));
    BOOST_TEST(!remove_from_cart(lines, 2));
    BOOST_TEST(lines.empty());
}

BOOST_AUTO_TEST_CASE(totals_come_from_catalogue_prices) {
    const std::map<std::int64_t, catalogue_entry> catalogue{{1, {"Mug", 1999}}, {2, {"Tea", 30}}};
    const auto lookup = [&](std::int64_t id) -> std::optional<catalogue_entry> {
        auto it = catalogue.find(id);
        return it == catalogue.end() ? std::nullopt : std::optional(it->second);
    };
    const std::vector<cart_line> lines{{1, 2}, {2, 3}, {99, 1}};  // 99 left the catalogue
    auto t = price_cart(lines, std::nullopt, lookup);
    BOOST_TEST(t.lines.size() == 2u);
    BOOST_TEST(t.lines[0].line_total == 3998);
    BOOST_TEST(t.lines[1].line_total == 90);
    BOOST_TEST(t.total_quantity == 5);
    BOOST_TEST(t.subtotal == 4088);
    BOOST_TEST(t.discount == 0);
    BOOST_TEST(t.total == 4088);
    BOOST_TEST(t.shipping == flat_shipping);

    t = price_cart(lines, std::string("SAVE10"), lookup);
    BOOST_TEST(t.discount == 409);
    BOOST_TEST(t.total == 3679);

    t = price_cart(lines, std::string("TAKE5"), lookup);  // below 50.00: kept on, gives nothing
    BOOST_TEST(t.discount == 0);
    BOOST_TEST((t.coupon_issue == coupon_problem::subtotal_too_low));
}

BOOST_AUTO_TEST_CASE(shipping_is_free_from_fifty_after_discount) {
    BOOST_TEST(shipping_for(0, false) == 0);
    BOOST_TEST(shipping_for(4999, true) == 500);
    BOOST_TEST(shipping_for(5000, true) == 0);
    const auto t = total_lines({{1, "Lamp", 5400, 1, 0}}, std::string("TAKE5"));  // 54.00 - 5.00 = 49.00
    BOOST_TEST(t.total == 4900);
    BOOST_TEST(t.shipping == 500);
}

BOOST_AUTO_TEST_SUITE_END()
