// seed_past_orders: each order is a cart, a checkout, a payment and the admin's moves at fixed times, the
// same steps a client takes, so its totals, stock and payments follow the shop's rules exactly.

#include "shop_seed.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/card_payments.hpp"
#include "core/cart_rules.hpp"

namespace storefront::server {

namespace {

// 2026-01-05T10:00:00Z, and a day between orders.
constexpr core::timestamp_ms first_order_at = 1'767'607'200'000;
constexpr core::timestamp_ms day_ms = 24LL * 60 * 60 * 1000;
// Seeded orders never expire on their own: they are settled (paid, shipped, …) at once.
constexpr core::timestamp_ms seed_ttl_ms = 365 * day_ms;

struct seed_order {
    std::int64_t user_id;
    std::vector<core::cart_line> lines;
    std::optional<std::string> coupon;
    const char* card;  // nullptr: never paid
    std::vector<core::shop_order_status> moves;
};

core::shipping_address address_of(std::int64_t user_id) {
    if (user_id == 1) {
        return {"Jhon", "12 Market Street", std::nullopt, "Springfield", "62701", "US"};
    }
    return {"Maria", "7 Rue des Fleurs", std::string("Apt 3"), "Lyon", "69001", "FR"};
}

// The five orders, on a store that holds none.
void make_past_orders(storage::shop_store& shop, const storage::user_store& users) {
    // The seed's users by their e-mails (a sandbox's copy of the seed is writable, so not marked seed).
    const std::pair<std::int64_t, const char*> seed_users[] = {{1, "john@mail.com"}, {2, "maria@mail.com"}};
    for (const auto& [id, email] : seed_users) {
        const auto user = users.find_user(id);
        if (!user || user->email != email) {
            return;
        }
    }
    using enum core::shop_order_status;
    const std::vector<seed_order> orders = {
        {1, {{21, 1}, {33, 1}}, std::nullopt, "4242424242424242", {shipped, delivered}},
        {1, {{20, 2}}, std::nullopt, "4242424242424242", {shipped}},
        {1, {{26, 1}}, std::nullopt, nullptr, {cancelled}},
        {2, {{30, 1}}, std::string("SAVE10"), "5555555555554444", {}},
        {2, {{22, 3}}, std::nullopt, "4242424242424242", {shipped, delivered}},
    };
    core::timestamp_ms at = first_order_at;
    for (const auto& o : orders) {
        const auto filled = shop.change_cart(
            o.user_id,
            [&](core::cart& cart) -> core::result<void> {
                cart.lines = o.lines;
                cart.coupon = o.coupon;
                return {};
            },
            at
        );
        if (!filled) {
            return;  // a catalogue without those products: no history rather than a partial one
        }
        const auto order = shop.checkout({o.user_id, address_of(o.user_id), at + 60'000, seed_ttl_ms});
        if (!order) {
            return;
        }
        if (o.card != nullptr) {
            const auto charged = core::charge_card({o.card, 12, 2030, "123"}, at + 120'000);
            if (!charged.decision ||
                !shop.record_payment(order->id, o.user_id, *charged.decision, at + 120'000)) {
                return;
            }
        }
        core::timestamp_ms moved_at = at + day_ms / 2;
        for (const auto to : o.moves) {
            (void)shop.change_order_status(order->id, to, moved_at, std::nullopt);
            moved_at += day_ms / 2;
        }
        at += 3 * day_ms;
    }
}

}  // namespace

void seed_past_orders(storage::shop_store& shop, const storage::user_store& users) {
    shop.seed_history_once([&] { make_past_orders(shop, users); });
}

}  // namespace storefront::server
