#pragma once
// The shop's value types (issue 42): carts, orders, payments and idempotency records as the storage ports
// take and return them and the server serialises them. Money is in integer cents, currency USD.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/money.hpp"

namespace storefront::core {

inline constexpr std::string_view shop_currency = "USD";

// A cart keeps what the client chose (product and quantity) and the coupon; prices are looked up in the
// catalogue whenever the cart is shown (core/cart_rules.hpp), so a price change shows until checkout.
struct cart_line {
    std::int64_t product_id = 0;
    std::int32_t quantity = 0;

    friend bool operator==(const cart_line&, const cart_line&) = default;
};

struct cart {
    std::int64_t id = 0;  // 0 while the user has no stored cart (an empty one is shown)
    std::int64_t user_id = 0;
    std::vector<cart_line> lines;       // in the order they were first added
    std::optional<std::string> coupon;  // upper-case code, e.g. "SAVE10"
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
};

struct shipping_address {
    std::string name;
    std::string line1;
    std::optional<std::string> line2;
    std::string city;
    std::string postal_code;
    std::string country;  // ISO 3166-1 alpha-2, upper case

    friend bool operator==(const shipping_address&, const shipping_address&) = default;
};

// core/order_states.hpp has the transitions between these.
enum class shop_order_status { pending_payment, paid, shipped, delivered, cancelled, expired };

// An order line with the catalogue price at checkout (kept: later price changes do not touch it).
struct order_item {
    std::int64_t product_id = 0;
    std::string title;
    cents unit_price = 0;
    std::int32_t quantity = 0;
    cents line_total = 0;

    friend bool operator==(const order_item&, const order_item&) = default;
};

struct shop_order {
    std::int64_t id = 0;
    std::int64_t user_id = 0;
    shop_order_status status = shop_order_status::pending_payment;
    std::vector<order_item> items;
    cents subtotal = 0;
    cents discount = 0;
    cents shipping = 0;
    cents total = 0;
    std::optional<std::string> coupon;
    shipping_address address;
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
    timestamp_ms expires_at = 0;  // when a pending_payment order expires
};

enum class payment_status { succeeded, failed, requires_action, refunded };

// A payment as kept: never the card number or CVC, only the brand and the last four digits.
struct payment {
    std::int64_t id = 0;
    std::int64_t order_id = 0;
    std::int64_t user_id = 0;
    cents amount = 0;
    payment_status status = payment_status::failed;
    std::string brand;  // "visa", "mastercard", …
    std::string last4;
    std::optional<std::string> failure_code;  // "card_declined", … when failed
    std::optional<std::string> next_action;   // "three_d_secure" while requires_action
    timestamp_ms created_at = 0;
    timestamp_ms updated_at = 0;
};

// Why a checkout (or a cart change) cannot have a product: `available` left of it, `requested` asked for.
struct stock_shortage {
    std::int64_t product_id = 0;
    std::int32_t requested = 0;
    std::int64_t available = 0;
};

}  // namespace storefront::core
