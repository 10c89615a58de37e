#pragma once
// The cart's rules (issue 42): a line's quantity is an integer 1-99 (also after adding to an existing
// line), a cart has at most 50 lines, and its money is computed here in cents from catalogue prices (never
// from what a client sends): lineTotal = price * quantity, subtotal = sum of lines, discount from the coupon
// (core/coupons.hpp), shipping from core/shipping_rule.hpp, total = subtotal - discount (+ shipping for an
// order). A rule that fails changes nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/coupons.hpp"
#include "core/input.hpp"
#include "core/money.hpp"
#include "core/shop_model.hpp"

namespace storefront::core {

inline constexpr std::int32_t min_line_quantity = 1;
inline constexpr std::int32_t max_line_quantity = 99;
inline constexpr std::size_t max_cart_lines = 50;

enum class cart_problem {
    quantity_out_of_range,  // not an integer 1-99, or the sum with the existing line above 99
    too_many_lines,         // a 51st product
    line_not_found,         // no line of that product to change or remove
};

// "quantity must be an integer from 1 to 99": the message naming the field (quantity or items).
[[nodiscard]] std::string cart_problem_message(cart_problem problem);
// The request field a problem is about: "quantity" or "items".
[[nodiscard]] std::string_view cart_problem_field(cart_problem problem) noexcept;

// A JSON member as a quantity: a number that is an integer (1, 2.0 and 1e1 are; 1.5, "2" and true are not);
// `allow_zero` for PATCH, where 0 removes the line. nullopt when it is not such an integer in range.
[[nodiscard]] std::optional<std::int32_t> read_quantity(const input_value& value, bool allow_zero);

// POST /cart/items: adds `quantity` of the product to its line (or a new line at the end).
[[nodiscard]] std::optional<cart_problem> add_to_cart(
    std::vector<cart_line>& lines, std::int64_t product_id, std::int32_t quantity
);
// PATCH /cart/items/{productId}: sets the line's quantity; 0 removes it.
[[nodiscard]] std::optional<cart_problem> set_cart_quantity(
    std::vector<cart_line>& lines, std::int64_t product_id, std::int32_t quantity
);
// DELETE /cart/items/{productId}.
[[nodiscard]] std::optional<cart_problem> remove_from_cart(
    std::vector<cart_line>& lines, std::int64_t product_id
);

// What the catalogue says of a product in a cart (current title and price).
struct catalogue_entry {
    std::string title;
    cents price = 0;
};

struct priced_line {
    std::int64_t product_id = 0;
    std::string title;
    cents price = 0;
    std::int32_t quantity = 0;
    cents line_total = 0;
};

struct cart_totals {
    std::vector<priced_line> lines;
    std::int64_t total_quantity = 0;
    cents subtotal = 0;
    cents discount = 0;
    cents shipping = 0;  // what an order of this cart would pay (core/shipping_rule.hpp)
    cents total = 0;     // subtotal - discount (the cart's total, without shipping)
    std::optional<coupon_problem> coupon_issue;  // the cart's coupon gives nothing now (it stays on)
};

// The cart's money from the catalogue: `lookup(product_id)` answers the current entry, nullopt for a
// product that is gone (its line is left out). `coupon` is the cart's code, if any.
template <class Lookup>
[[nodiscard]] cart_totals price_cart(
    const std::vector<cart_line>& lines, const std::optional<std::string>& coupon, Lookup&& lookup
);

// The same from lines already priced (the form price_cart builds; checkout uses it with locked prices).
[[nodiscard]] cart_totals total_lines(
    std::vector<priced_line> lines, const std::optional<std::string>& coupon
);

// Who checks out, to which address, when, and how long the order then waits for its payment.
struct checkout_terms {
    std::int64_t user_id = 0;
    shipping_address address;  // already checked (core::read_shipping_address)
    timestamp_ms now = 0;
    timestamp_ms ttl_ms = 0;  // expiresAt = now + ttl_ms (--order-ttl)
};

// The order a checkout on `terms` makes of a priced cart (pending_payment, id 0 until stored): items at these
// prices, total = subtotal - discount + shipping, the coupon kept when it gave a discount, expiresAt = now +
// ttl.
[[nodiscard]] shop_order order_from_cart(
    const cart_totals& totals, const std::optional<std::string>& coupon, const checkout_terms& terms
);

template <class Lookup>
cart_totals price_cart(
    const std::vector<cart_line>& lines, const std::optional<std::string>& coupon, Lookup&& lookup
) {
    std::vector<priced_line> priced;
    priced.reserve(lines.size());
    for (const auto& line : lines) {
        const std::optional<catalogue_entry> entry = lookup(line.product_id);
        if (!entry) {
            continue;
        }
        priced.push_back({line.product_id, entry->title, entry->price, line.quantity, 0});
    }
    return total_lines(std::move(priced), coupon);
}

}  // namespace storefront::core
