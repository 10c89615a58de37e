// The coupon table and its rules; a new coupon is one row of `coupons`.

#include "core/coupons.hpp"

#include <array>
#include <cctype>

namespace storefront::core {

namespace {

struct coupon_rule {
    std::string_view code;
    cents minimum_subtotal;  // the subtotal from which it applies
    int percent_off;         // or
    cents amount_off;
};

constexpr std::array<coupon_rule, 2> coupons{{
    {"SAVE10", 1, 10, 0},
    {"TAKE5", 5000, 0, 500},
}};

std::string upper(std::string_view text) {
    std::string out(text);
    for (auto& c : out) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

const coupon_rule* find_rule(std::string_view code) {
    const auto wanted = upper(code);
    for (const auto& rule : coupons) {
        if (rule.code == wanted) {
            return &rule;
        }
    }
    return nullptr;
}

}  // namespace

std::optional<std::string> known_coupon(std::string_view code) {
    const auto* rule = find_rule(code);
    return rule ? std::optional<std::string>(rule->code) : std::nullopt;
}

coupon_outcome apply_coupon(std::string_view code, cents subtotal) {
    const auto* rule = find_rule(code);
    if (rule == nullptr) {
        return {0, coupon_problem::unknown_code};
    }
    if (subtotal <= 0) {
        return {0, coupon_problem::cart_empty};
    }
    if (subtotal < rule->minimum_subtotal) {
        return {0, coupon_problem::subtotal_too_low};
    }
    // Half up: (subtotal * percent + 50) / 100 cents.
    cents discount = rule->percent_off != 0 ? (subtotal * rule->percent_off + 50) / 100 : rule->amount_off;
    return {discount < subtotal ? discount : subtotal, std::nullopt};
}

std::string coupon_problem_message(std::string_view code, coupon_problem problem) {
    const std::string name = upper(code);
    switch (problem) {
        case coupon_problem::unknown_code:
            return "unknown coupon code " + name;
        case coupon_problem::cart_empty:
            return "coupon " + name + " needs a cart with items";
        case coupon_problem::subtotal_too_low: {
            const auto* rule = find_rule(code);
            return "coupon " + name + " needs a subtotal of at least " +
                   format_cents(rule ? rule->minimum_subtotal : 0);
        }
    }
    return "coupon " + name + " does not apply";
}

}  // namespace storefront::core
