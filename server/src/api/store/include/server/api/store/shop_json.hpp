#pragma once
// JSON of the shop (issue 42), private to server_lib: carts, orders and payments as /api/v1 answers them
// (money as JSON numbers with at most two decimals, written from cents), and the nested request objects
// (shippingAddress, card) read for core's rules.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "core/card_payments.hpp"
#include "core/cart_rules.hpp"
#include "core/shop_model.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server::shop_json {

// {id, userId, items: [{productId, title, price, quantity, lineTotal}], totalQuantity, subtotal, discount,
// total, coupon, currency, createdAt, updatedAt}: `totals` priced from the catalogue now (createdAt and
// updatedAt null for a cart never stored).
[[nodiscard]] std::string cart_json(const core::cart& cart, const core::cart_totals& totals);

// {id, userId, status, items: [{productId, title, price, quantity, lineTotal}], subtotal, discount,
// shipping, total, coupon, currency, shippingAddress, createdAt, updatedAt, expiresAt}
[[nodiscard]] std::string order_json(const core::shop_order& order);
[[nodiscard]] std::string orders_json(const std::vector<core::shop_order>& orders);

// {id, orderId, amount, currency, status, card: {brand, last4}, failureCode?, nextAction?, createdAt,
// updatedAt}; `three_ds_url` is where a requires_action payment is completed.
[[nodiscard]] std::string payment_json(const core::payment& payment, std::string_view three_ds_url);
[[nodiscard]] std::string payments_json(
    const std::vector<core::payment>& payments, const std::string& three_ds_base
);

// The JSON object body of a shop write: 415 for another media type, 400 for malformed JSON or a
// non-object.
[[nodiscard]] or_response<boost::json::object> object_body(const request_context& ctx);

// The member `name` of `body` as an object's fields (core/input.hpp), or 400 "`name` must be an object".
[[nodiscard]] or_response<core::input_fields> nested_fields(
    const boost::json::object& body, std::string_view name
);

// {card: {number, expMonth, expYear, cvc}}: the card, or 400 naming the field (card.number must be a
// string of digits, card.expMonth and card.expYear integers, card.cvc a string).
[[nodiscard]] or_response<core::card_details> read_card(const boost::json::object& body);

}  // namespace storefront::server::shop_json
