#pragma once
// The coupons the shop knows (issue 42): SAVE10 takes 10 % off the subtotal (rounded half up to the cent);
// TAKE5 takes 5.00 off a subtotal of 50.00 or more. Codes are matched case-insensitively and kept in upper
// case. A discount never exceeds the subtotal.

#include <optional>
#include <string>
#include <string_view>

#include "core/money.hpp"

namespace storefront::core {

enum class coupon_problem {
    unknown_code,      // no such coupon
    cart_empty,        // nothing to discount
    subtotal_too_low,  // TAKE5 below 50.00
};

struct coupon_outcome {
    cents discount = 0;
    std::optional<coupon_problem> problem;  // set when the coupon gives nothing (discount 0)
};

// The upper-case form of a known code ("save10" -> "SAVE10"); nullopt for an unknown one.
[[nodiscard]] std::optional<std::string> known_coupon(std::string_view code);

// The discount `code` gives on `subtotal`, or why it gives none.
[[nodiscard]] coupon_outcome apply_coupon(std::string_view code, cents subtotal);

// "coupon TAKE5 needs a subtotal of at least 50.00": the reason a client is shown.
[[nodiscard]] std::string coupon_problem_message(std::string_view code, coupon_problem problem);

}  // namespace storefront::core
