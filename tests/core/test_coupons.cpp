// Tests for the coupons SAVE10 and TAKE5 and the reasons a coupon gives nothing.
#include <boost/test/unit_test.hpp>

#include "core/coupons.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(coupons)

BOOST_AUTO_TEST_CASE(save10_takes_ten_percent_rounded_half_up) {
    BOOST_TEST(apply_coupon("SAVE10", 10000).discount == 1000);
    BOOST_TEST(apply_coupon("save10", 1999).discount == 200);  // 199.9 -> 200
    BOOST_TEST(apply_coupon("SAVE10", 1994).discount == 199);  // 199.4 -> 199
    BOOST_TEST(apply_coupon("SAVE10", 4).discount == 0);
    BOOST_TEST(apply_coupon("SAVE10", 5).discount == 1);
    BOOST_TEST(!apply_coupon("SAVE10", 1).problem.has_value());
}

BOOST_AUTO_TEST_CASE(take5_needs_fifty) {
    BOOST_TEST(apply_coupon("TAKE5", 5000).discount == 500);
    BOOST_TEST(apply_coupon("Take5", 12345).discount == 500);
    const auto low = apply_coupon("TAKE5", 4999);
    BOOST_TEST(low.discount == 0);
    BOOST_TEST((low.problem == coupon_problem::subtotal_too_low));
    BOOST_TEST(
        coupon_problem_message("take5", *low.problem) == "coupon TAKE5 needs a subtotal of at least 50"
    );
}

BOOST_AUTO_TEST_CASE(unknown_and_empty) {
    BOOST_TEST((apply_coupon("FREE", 10000).problem == coupon_problem::unknown_code));
    BOOST_TEST((apply_coupon("SAVE10", 0).problem == coupon_problem::cart_empty));
    BOOST_TEST(coupon_problem_message("free", coupon_problem::unknown_code) == "unknown coupon code FREE");
    BOOST_TEST((known_coupon("save10") == std::optional<std::string>("SAVE10")));
    BOOST_TEST(!known_coupon("SAVE 10"));
}

BOOST_AUTO_TEST_SUITE_END()
