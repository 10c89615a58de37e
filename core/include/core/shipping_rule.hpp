#pragma once
// The shipping rule (issue 42), one flat rate: an order whose discounted subtotal (subtotal - discount) is
// 50.00 or more ships free; any other non-empty order pays 5.00; an empty one pays nothing.

#include "core/money.hpp"

namespace storefront::core {

inline constexpr cents free_shipping_from = 5000;
inline constexpr cents flat_shipping = 500;

// The shipping of an order whose discounted subtotal is `discounted_subtotal`; `has_items` false gives 0.
[[nodiscard]] constexpr cents shipping_for(cents discounted_subtotal, bool has_items) noexcept {
    if (!has_items) {
        return 0;
    }
    return discounted_subtotal >= free_shipping_from ? 0 : flat_shipping;
}

}  // namespace storefront::core
