// The fake processor: card checks (Luhn, expiry, CVC), brand ranges and the test cards' outcomes.
// Card numbers live only in this call's locals; nothing here logs or keeps them.

#include "core/card_payments.hpp"

#include <array>
#include <utility>

#include "core/enum_names.hpp"
#include "core/order_states.hpp"

namespace storefront::core {

namespace {

constexpr enum_name<payment_status> payment_status_names[] = {
    {payment_status::succeeded, "succeeded"},
    {payment_status::failed, "failed"},
    {payment_status::requires_action, "requires_action"},
    {payment_status::refunded, "refunded"},
};

// Each problem's field and the message that explains it, side by side.
constexpr problem_text<card_problem> card_problem_texts[] = {
    {card_problem::invalid_number,
     "card.number",
     "card.number must be 12 to 19 digits that pass the Luhn check"},
    {card_problem::invalid_expiry_month, "card.expMonth", "card.expMonth must be an integer from 1 to 12"},
    {card_problem::expired, "card.expYear", "card.expYear/expMonth is in the past"},
    {card_problem::invalid_cvc, "card.cvc", "card.cvc must be 3 digits (4 for amex)"},
};

struct test_card {
    std::string_view number;
    payment_status status;
    std::string_view failure_code;
};

constexpr std::array<test_card, 6> test_cards{{
    {"4242424242424242", payment_status::succeeded, ""},
    {"4000000000000002", payment_status::failed, "card_declined"},
    {"4000000000009995", payment_status::failed, "insufficient_funds"},
    {"4000000000000069", payment_status::failed, "expired_card"},
    {"4000000000000127", payment_status::failed, "incorrect_cvc"},
    {"4000002500003155", payment_status::requires_action, ""},
}};

bool all_digits(std::string_view text) noexcept {
    for (const char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    return !text.empty();
}

// The number without the spaces and dashes people type between groups; empty when anything else is there.
std::string digits_of(std::string_view number) {
    std::string out;
    for (const char c : number) {
        if (c >= '0' && c <= '9') {
            out += c;
        } else if (c != ' ' && c != '-') {
            return {};
        }
    }
    return out;
}

// The leading `n` digits as a number (0 when shorter).
int prefix(std::string_view digits, std::size_t n) noexcept {
    if (digits.size() < n) {
        return 0;
    }
    int out = 0;
    for (std::size_t i = 0; i < n; ++i) {
        out = out * 10 + (digits[i] - '0');
    }
    return out;
}

// Year and month (1-12) of a Unix time in milliseconds, UTC (Howard Hinnant's civil_from_days).
std::pair<std::int64_t, int> year_month(timestamp_ms now) noexcept {
    std::int64_t days = now / 86'400'000;
    if (now % 86'400'000 < 0) {
        --days;
    }
    days += 719'468;
    const std::int64_t era = (days >= 0 ? days : days - 146'096) / 146'097;
    const std::int64_t doe = days - era * 146'097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36'524 - doe / 146'096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    return {year, month};
}

}  // namespace

std::string_view to_string(payment_status status) noexcept {
    return name_of(payment_status_names, status, "failed");
}

std::optional<payment_status> parse_payment_status(std::string_view text) noexcept {
    return value_named(payment_status_names, text);
}

std::string card_problem_message(card_problem problem) {
    return std::string(
        text_of(card_problem_texts, problem, &problem_text<card_problem>::message, "invalid card")
    );
}

std::string_view card_problem_field(card_problem problem) noexcept {
    return text_of(card_problem_texts, problem, &problem_text<card_problem>::field, "card");
}

bool passes_luhn(std::string_view digits) noexcept {
    if (!all_digits(digits)) {
        return false;
    }
    int sum = 0;
    bool twice = false;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        int d = *it - '0';
        if (twice) {
            d *= 2;
            d = d > 9 ? d - 9 : d;
        }
        sum += d;
        twice = !twice;
    }
    return sum % 10 == 0;
}

std::string_view card_brand(std::string_view digits) noexcept {
    const int two = prefix(digits, 2);
    const int three = prefix(digits, 3);
    const int four = prefix(digits, 4);
    if (!digits.empty() && digits[0] == '4') {
        return "visa";
    }
    if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) {
        return "mastercard";
    }
    if (two == 34 || two == 37) {
        return "amex";
    }
    if (four == 6011 || two == 65 || (three >= 644 && three <= 649)) {
        return "discover";
    }
    if (two == 36 || two == 38 || (three >= 300 && three <= 305)) {
        return "diners";
    }
    if (four >= 3528 && four <= 3589) {
        return "jcb";
    }
    if (two == 62) {
        return "unionpay";
    }
    return "unknown";
}

card_outcome charge_card(const card_details& card, timestamp_ms now) {
    const std::string digits = digits_of(card.number);
    if (digits.size() < 12 || digits.size() > 19 || !passes_luhn(digits)) {
        return {std::nullopt, card_problem::invalid_number};
    }
    if (card.exp_month < 1 || card.exp_month > 12) {
        return {std::nullopt, card_problem::invalid_expiry_month};
    }
    const std::int64_t year =
        card.exp_year >= 0 && card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
    const auto [this_year, this_month] = year_month(now);
    if (year < this_year || (year == this_year && card.exp_month < this_month)) {
        return {std::nullopt, card_problem::expired};
    }
    const std::string_view brand = card_brand(digits);
    const std::size_t cvc_length = brand == "amex" ? 4 : 3;
    if (card.cvc.size() != cvc_length || !all_digits(card.cvc)) {
        return {std::nullopt, card_problem::invalid_cvc};
    }
    charge_decision decision;
    decision.brand = brand;
    decision.last4 = digits.substr(digits.size() - 4);
    decision.status = payment_status::succeeded;
    for (const auto& test : test_cards) {
        if (test.number == digits) {
            decision.status = test.status;
            if (!test.failure_code.empty()) {
                decision.failure_code = std::string(test.failure_code);
            }
        }
    }
    if (decision.status == payment_status::requires_action) {
        decision.next_action = "three_d_secure";
    }
    return {std::move(decision), std::nullopt};
}

charge_decision complete_three_d_secure(charge_decision pending, bool approve) {
    pending.next_action.reset();
    if (approve) {
        pending.status = payment_status::succeeded;
        pending.failure_code.reset();
    } else {
        pending.status = payment_status::failed;
        pending.failure_code = "authentication_failed";
    }
    return pending;
}

result<void> complete_stored_three_d_secure(
    payment& stored, const shop_order* order, bool approve, timestamp_ms now
) {
    if (order == nullptr || stored.status != payment_status::requires_action ||
        order->status != shop_order_status::pending_payment || is_due_to_expire(*order, now)) {
        return errc::transition_not_allowed;
    }
    const auto done = complete_three_d_secure(
        {stored.status, stored.brand, stored.last4, stored.failure_code, stored.next_action}, approve
    );
    stored.status = done.status;
    stored.failure_code = done.failure_code;
    stored.next_action = done.next_action;
    stored.updated_at = now;
    return {};
}

payment payment_of(const shop_order& order, const charge_decision& decision, timestamp_ms now) {
    payment p;
    p.order_id = order.id;
    p.user_id = order.user_id;
    p.amount = order.total;
    p.status = decision.status;
    p.brand = decision.brand;
    p.last4 = decision.last4;
    p.failure_code = decision.failure_code;
    p.next_action = decision.next_action;
    p.created_at = p.updated_at = now;
    return p;
}

}  // namespace storefront::core
