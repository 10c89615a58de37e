// Tests for the order state machine: allowed moves, refunds, stock release, expiry and the 409 message.
#include <boost/test/unit_test.hpp>

#include "core/order_states.hpp"

using namespace storefront::core;
using status = shop_order_status;

BOOST_AUTO_TEST_SUITE(order_states)

BOOST_AUTO_TEST_CASE(every_pair_of_states) {
    const status all[] = {
        status::pending_payment,
        status::paid,
        status::shipped,
        status::delivered,
        status::cancelled,
        status::expired};
    const std::pair<status, status> allowed[] = {
        {status::pending_payment, status::paid},
        {status::pending_payment, status::cancelled},
        {status::pending_payment, status::expired},
        {status::paid, status::shipped},
        {status::paid, status::cancelled},
        {status::shipped, status::delivered},
    };
    for (const auto from : all) {
        for (const auto to : all) {
            BOOST_TEST_CONTEXT(to_string(from) << " -> " << to_string(to)) {
                bool expected = false;
                for (const auto& [a, b] : allowed) {
                    expected = expected || (a == from && b == to);
                }
                const auto check = check_transition(from, to);
                BOOST_TEST(check.allowed == expected);
                BOOST_TEST(
                    check.refunds_payment == (expected && from == status::paid && to == status::cancelled)
                );
                BOOST_TEST(
                    check.gives_stock_back == (expected && (to == status::cancelled || to == status::expired))
                );
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_refused_move_names_the_allowed_ones) {
    const auto check = check_transition(status::paid, status::delivered);
    BOOST_TEST(!check.allowed);
    BOOST_TEST((check.allowed_next == std::vector<status>{status::shipped, status::cancelled}));
    BOOST_TEST(
        transition_message(status::paid, status::delivered) ==
        "an order cannot go from paid to delivered; allowed: shipped, cancelled"
    );
    BOOST_TEST(
        transition_message(status::delivered, status::cancelled) ==
        "an order cannot go from delivered to cancelled; allowed: none"
    );
}

BOOST_AUTO_TEST_CASE(names_round_trip) {
    for (const auto s :
         {status::pending_payment,
          status::paid,
          status::shipped,
          status::delivered,
          status::cancelled,
          status::expired}) {
        BOOST_TEST((parse_shop_order_status(to_string(s)) == s));
    }
    BOOST_TEST(!parse_shop_order_status("Paid"));
    BOOST_TEST(admin_settable(status::shipped));
    BOOST_TEST(admin_settable(status::delivered));
    BOOST_TEST(!admin_settable(status::paid));
    BOOST_TEST(!admin_settable(status::cancelled));
}

BOOST_AUTO_TEST_CASE(expiry_only_for_unpaid_orders) {
    shop_order o;
    o.expires_at = 1000;
    BOOST_TEST(!is_due_to_expire(o, 999));
    BOOST_TEST(is_due_to_expire(o, 1000));
    o.status = status::paid;
    BOOST_TEST(!is_due_to_expire(o, 5000));
}

BOOST_AUTO_TEST_SUITE_END()
