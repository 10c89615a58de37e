// Tests for the fake payment processor: every test card, Luhn, expiry, CVC, brands and 3-D Secure.
#include <boost/test/unit_test.hpp>

#include "core/card_payments.hpp"

using namespace storefront::core;

namespace {

// 2026-11-27 10:00 UTC.
constexpr timestamp_ms now = 1'795'773'600'000;

card_details card(std::string number, std::string cvc = "123") {
    return {std::move(number), 12, 2030, std::move(cvc)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(card_payments)

BOOST_AUTO_TEST_CASE(test_cards) {
    struct row {
        std::string number;
        payment_status status;
        std::optional<std::string> failure;
    };
    const row rows[] = {
        {"4242424242424242", payment_status::succeeded, {}},
        {"4000000000000002", payment_status::failed, "card_declined"},
        {"4000000000009995", payment_status::failed, "insufficient_funds"},
        {"4000000000000069", payment_status::failed, "expired_card"},
        {"4000000000000127", payment_status::failed, "incorrect_cvc"},
        {"4000002500003155", payment_status::requires_action, {}},
        {"5555555555554444", payment_status::succeeded, {}},  // any other Luhn-valid number
        {"4242 4242 4242 4242", payment_status::succeeded, {}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.number) {
            const auto out = charge_card(card(r.number), now);
            BOOST_TEST_REQUIRE(out.decision.has_value());
            BOOST_TEST((out.decision->status == r.status));
            BOOST_TEST((out.decision->failure_code == r.failure));
            BOOST_TEST(out.decision->last4 == r.number.substr(r.number.size() - 4));
        }
    }
    const auto three_ds = charge_card(card("4000002500003155"), now).decision;
    BOOST_TEST((three_ds->next_action == std::optional<std::string>("three_d_secure")));
    const auto approved = complete_three_d_secure(*three_ds, true);
    BOOST_TEST((approved.status == payment_status::succeeded));
    BOOST_TEST(!approved.next_action);
    const auto failed = complete_three_d_secure(*three_ds, false);
    BOOST_TEST((failed.status == payment_status::failed));
    BOOST_TEST((failed.failure_code == std::optional<std::string>("authentication_failed")));
}

BOOST_AUTO_TEST_CASE(invalid_input) {
    BOOST_TEST((charge_card(card("4242424242424241"), now).problem == card_problem::invalid_number));
    BOOST_TEST((charge_card(card("42424242"), now).problem == card_problem::invalid_number));
    BOOST_TEST((charge_card(card("4242x424242424242"), now).problem == card_problem::invalid_number));
    BOOST_TEST((charge_card(card(""), now).problem == card_problem::invalid_number));
    auto c = card("4242424242424242");
    c.exp_month = 13;
    BOOST_TEST((charge_card(c, now).problem == card_problem::invalid_expiry_month));
    c.exp_month = 10;
    c.exp_year = 2026;
    BOOST_TEST((charge_card(c, now).problem == card_problem::expired));
    c.exp_month = 11;  // this month still counts
    BOOST_TEST(charge_card(c, now).decision.has_value());
    c.exp_year = 25;  // 2025
    BOOST_TEST((charge_card(c, now).problem == card_problem::expired));
    BOOST_TEST((charge_card(card("4242424242424242", "12"), now).problem == card_problem::invalid_cvc));
    BOOST_TEST((charge_card(card("378282246310005", "123"), now).problem == card_problem::invalid_cvc));
    BOOST_TEST(charge_card(card("378282246310005", "1234"), now).decision.has_value());
    BOOST_TEST(card_problem_field(card_problem::expired) == "card.expYear");
}

BOOST_AUTO_TEST_CASE(brands) {
    BOOST_TEST(card_brand("4242424242424242") == "visa");
    BOOST_TEST(card_brand("5555555555554444") == "mastercard");
    BOOST_TEST(card_brand("2223003122003222") == "mastercard");
    BOOST_TEST(card_brand("378282246310005") == "amex");
    BOOST_TEST(card_brand("6011111111111117") == "discover");
    BOOST_TEST(card_brand("3056930009020004") == "diners");
    BOOST_TEST(card_brand("3566002020360505") == "jcb");
    BOOST_TEST(card_brand("6200000000000005") == "unionpay");
    BOOST_TEST(card_brand("9999999999999995") == "unknown");
    BOOST_TEST(passes_luhn("79927398713"));
    BOOST_TEST(!passes_luhn("79927398710"));
}

BOOST_AUTO_TEST_SUITE_END()
