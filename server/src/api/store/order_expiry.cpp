// Unpaid orders past --order-ttl expire in the background; the change feed says so, as it says every other
// move of an order (handlers_orders.cpp, handlers_payments.cpp).

#include "server/api/store/order_expiry.hpp"

#include <exception>
#include <string>

#include "server/api/store/shop_json.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

std::size_t expire_due_orders(storage::shop_store& shop, event_hub* events, core::timestamp_ms now) noexcept {
    try {
        const auto expired = shop.expire_orders(now);
        if (!expired) {
            return 0;
        }
        for (const auto& order : *expired) {
            if (events == nullptr) {
                break;
            }
            try {
                events->publish("order.expired", shop_json::order_json(order), {.owner = order.user_id});
            } catch (const std::exception& e) {
                // The expiry is committed; only its event is lost (streams resuming get a reset).
                log_event(
                    "warning",
                    "event_not_published",
                    {field("type", "order.expired"), field("what", e.what())}
                );
            }
        }
        return expired->size();
    } catch (const std::exception& e) {  // storage unavailable: the next pass tries again
        log_event("warning", "order_expiry_failed", {field("what", e.what())});
        return 0;
    }
}

}  // namespace storefront::server
