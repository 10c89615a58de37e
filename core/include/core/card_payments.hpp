#pragma once
// The fake payment processor (issue 42): deterministic answers for the test cards payment providers'
// test modes document, no external service. It sees the card only for the length of one call and answers
// the brand and the last four digits; the number and the CVC are never kept.
//
//   4242424242424242  succeeded
//   4000000000000002  failed, card_declined
//   4000000000009995  failed, insufficient_funds
//   4000000000000069  failed, expired_card
//   4000000000000127  failed, incorrect_cvc
//   4000002500003155  requires_action, next action three_d_secure (complete_three_d_secure decides)
//   any other number passing the Luhn check: succeeded
//
// A number that is not 12-19 digits or fails the Luhn check, a month outside 1-12, an expiry before the
// current month or a CVC that is not 3 digits (4 for amex) is invalid input: no payment at all.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/errc.hpp"
#include "core/model.hpp"
#include "core/shop_model.hpp"

namespace storefront::core {

struct card_details {
    std::string number;  // digits; spaces and dashes between groups are accepted
    std::int32_t exp_month = 0;
    std::int32_t exp_year = 0;  // four digits, or two (20xx)
    std::string cvc;
};

enum class card_problem { invalid_number, invalid_expiry_month, expired, invalid_cvc };

// "card.number fails the Luhn check": the message, and the field it names ("card.number", …).
[[nodiscard]] std::string card_problem_message(card_problem problem);
[[nodiscard]] std::string_view card_problem_field(card_problem problem) noexcept;

// What the processor decided; the store keeps it as a core::payment.
struct charge_decision {
    payment_status status = payment_status::failed;
    std::string brand;
    std::string last4;
    std::optional<std::string> failure_code;
    std::optional<std::string> next_action;  // "three_d_secure"
};

struct card_outcome {
    std::optional<charge_decision> decision;  // set when the card was valid input
    std::optional<card_problem> problem;      // else why not
};

// "succeeded", "failed", "requires_action", "refunded" (API and storage name them so).
[[nodiscard]] std::string_view to_string(payment_status status) noexcept;
[[nodiscard]] std::optional<payment_status> parse_payment_status(std::string_view text) noexcept;

// Charges `card` at time `now` (its month decides whether the card has expired).
[[nodiscard]] card_outcome charge_card(const card_details& card, timestamp_ms now);

// "visa", "mastercard", "amex", "discover", "diners", "jcb", "unionpay" or "unknown", from the leading
// digits.
[[nodiscard]] std::string_view card_brand(std::string_view digits) noexcept;

// The Luhn check of a string of digits (false for anything else).
[[nodiscard]] bool passes_luhn(std::string_view digits) noexcept;

// The payment `decision` makes of `order` at `now`, as every backend keeps it (id 0: the store numbers it).
[[nodiscard]] payment payment_of(const shop_order& order, const charge_decision& decision, timestamp_ms now);

// POST /payments/{id}/3ds: `approve` gives succeeded, otherwise failed with "authentication_failed".
[[nodiscard]] charge_decision complete_three_d_secure(charge_decision pending, bool approve);

// The same step on a stored payment of `order` (nullptr when its order is gone), as every backend applies
// it: transition_not_allowed unless the payment waits for 3-D Secure and the order is still payable at
// `now`; otherwise `stored` is completed (status, failure code, next action, updated_at). The caller marks
// the order paid when `stored.status` is then succeeded.
[[nodiscard]] result<void> complete_stored_three_d_secure(
    payment& stored, const shop_order* order, bool approve, timestamp_ms now
);

}  // namespace storefront::core
