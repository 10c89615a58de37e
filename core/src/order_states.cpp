// The order state machine: one table of allowed moves; everything else is derived from it.

#include "core/order_states.hpp"

#include <array>
#include <string>
#include <utility>

#include "core/enum_names.hpp"

namespace storefront::core {

namespace {

using status = shop_order_status;

constexpr std::array<std::pair<status, status>, 6> moves{{
    {status::pending_payment, status::paid},
    {status::pending_payment, status::cancelled},
    {status::pending_payment, status::expired},
    {status::paid, status::shipped},
    {status::paid, status::cancelled},
    {status::shipped, status::delivered},
}};

constexpr enum_name<status> names[] = {
    {status::pending_payment, "pending_payment"},
    {status::paid, "paid"},
    {status::shipped, "shipped"},
    {status::delivered, "delivered"},
    {status::cancelled, "cancelled"},
    {status::expired, "expired"},
};

}  // namespace

std::string_view to_string(shop_order_status s) noexcept {
    return name_of(names, s, "unknown");
}

std::optional<shop_order_status> parse_shop_order_status(std::string_view text) noexcept {
    return value_named(names, text);
}

std::vector<shop_order_status> allowed_transitions(shop_order_status from) {
    std::vector<shop_order_status> out;
    for (const auto& [a, b] : moves) {
        if (a == from) {
            out.push_back(b);
        }
    }
    return out;
}

transition_check check_transition(shop_order_status from, shop_order_status to) {
    transition_check out;
    out.allowed_next = allowed_transitions(from);
    for (const auto next : out.allowed_next) {
        out.allowed = out.allowed || next == to;
    }
    if (out.allowed) {
        out.gives_stock_back = to == status::cancelled || to == status::expired;
        out.refunds_payment = from == status::paid && to == status::cancelled;
    }
    return out;
}

bool admin_settable(shop_order_status to) noexcept {
    return to == status::shipped || to == status::delivered;
}

bool is_due_to_expire(const shop_order& order, timestamp_ms now) noexcept {
    return order.status == status::pending_payment && order.expires_at <= now;
}

std::string transition_message(shop_order_status from, shop_order_status to) {
    std::string out = "an order cannot go from " + std::string(to_string(from)) + " to " +
                      std::string(to_string(to)) + "; allowed: ";
    const auto next = allowed_transitions(from);
    if (next.empty()) {
        return out + "none";
    }
    for (std::size_t i = 0; i < next.size(); ++i) {
        out += (i ? ", " : "") + std::string(to_string(next[i]));
    }
    return out;
}

}  // namespace storefront::core
