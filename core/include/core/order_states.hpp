#pragma once
// The order state machine (issue 42):
//
//   pending_payment --pay--> paid --ship--> shipped --deliver--> delivered
//         |   \                |
//         |    `--cancel--.    `--cancel (refund)--.
//         |                v                        v
//         `--ttl passed--> expired             cancelled
//
// cancelled is reached from pending_payment or paid (a paid order's payment is refunded); expired from
// pending_payment once its expiresAt has passed. Cancelling and expiring give the stock back; delivered,
// cancelled and expired are final.

#include <optional>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/shop_model.hpp"

namespace storefront::core {

inline constexpr timestamp_ms default_order_ttl_ms = 30 * 60 * 1000;

// "pending_payment", "paid", … as the API names them.
[[nodiscard]] std::string_view to_string(shop_order_status status) noexcept;
[[nodiscard]] std::optional<shop_order_status> parse_shop_order_status(std::string_view text) noexcept;

// The states `from` may move to, in the order of the diagram; empty for a final state.
[[nodiscard]] std::vector<shop_order_status> allowed_transitions(shop_order_status from);

struct transition_check {
    bool allowed = false;
    std::vector<shop_order_status> allowed_next;  // when not allowed: what is (for the 409's message)
    bool gives_stock_back = false;                // cancelled or expired
    bool refunds_payment = false;                 // paid -> cancelled
};
[[nodiscard]] transition_check check_transition(shop_order_status from, shop_order_status to);

// Whether an admin may set `to` with PATCH /orders/{id} (shipped, delivered); payments, cancel and expiry
// have their own routes.
[[nodiscard]] bool admin_settable(shop_order_status to) noexcept;

// A pending_payment order whose expiresAt is at or before `now` has expired.
[[nodiscard]] bool is_due_to_expire(const shop_order& order, timestamp_ms now) noexcept;

// "cannot go from delivered to cancelled; allowed: none" / "…; allowed: shipped, cancelled".
[[nodiscard]] std::string transition_message(shop_order_status from, shop_order_status to);

}  // namespace storefront::core
