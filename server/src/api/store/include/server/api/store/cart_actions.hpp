#pragma once
// The cart's actions, one set that /api/v1 (handlers_cart.cpp) and GraphQL (shop_resolvers.cpp) both run:
// core's rule each change applies, the one store call that applies it, and the check a coupon passes before
// the cart keeps it. The surfaces differ only in how they read their input and answer (REST's and
// GraphQL's texts for a product short of stock differ).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "core/cart_rules.hpp"
#include "core/coupons.hpp"
#include "server/api/store/shop_support.hpp"
#include "server/api/store/store_services.hpp"

namespace storefront::server::cart_actions {

// The changes a cart takes, each a rule for change(): it changes the cart and returns the cart_problem it
// met, if any. `quantity` more of `product` (a new line, or added to its line).
[[nodiscard]] inline auto add_item(std::int64_t product, std::int32_t quantity) {
    return [=](core::cart& cart) { return core::add_to_cart(cart.lines, product, quantity); };
}

// The line of `product` set to `quantity` (0 removes it).
[[nodiscard]] inline auto set_item(std::int64_t product, std::int32_t quantity) {
    return [=](core::cart& cart) { return core::set_cart_quantity(cart.lines, product, quantity); };
}

// The line of `product` removed.
[[nodiscard]] inline auto remove_item(std::int64_t product) {
    return [=](core::cart& cart) { return core::remove_from_cart(cart.lines, product); };
}

// `coupon` (core::known_coupon's form of a code that passed coupon_refusal) kept with the cart.
[[nodiscard]] inline auto set_coupon(std::string coupon) {
    return [coupon = std::move(coupon)](core::cart& cart) -> std::optional<core::cart_problem> {
        cart.coupon = coupon;
        return std::nullopt;
    };
}

// The cart's coupon taken off.
[[nodiscard]] inline auto clear_coupon() {
    return [](core::cart& cart) -> std::optional<core::cart_problem> {
        cart.coupon.reset();
        return std::nullopt;
    };
}

// What change() did. When the cart was not changed, `problem` says what the rule refused, else `shortage`
// names the product that is missing or short of stock. A changed cart comes with `totals`, priced from the
// products the change read (no second trip to the catalogue for the answer).
struct outcome {
    core::result<core::cart> cart;
    std::optional<core::cart_problem> problem;
    core::stock_shortage shortage;
    core::cart_totals totals;
};

// One change of `user`'s cart with `rule`, one atomic store call (blocking: call inside app.storage() or
// app.shop_write()).
template <class Rule>
[[nodiscard]] outcome change(const store_services& app, std::int64_t user, Rule rule) {
    std::optional<core::cart_problem> problem;
    core::stock_shortage shortage;
    core::cart_totals totals;
    auto changed = app.shop().change_cart(
        user,
        [&](core::cart& cart) -> core::result<void> {
            problem = rule(cart);
            if (problem) {
                return core::errc::invalid_input;
            }
            return {};
        },
        shop_support::now_ms(),
        &shortage,
        &totals
    );
    return {std::move(changed), problem, shortage, std::move(totals)};
}

// The message of a change to a cart line the cart does not have (core::cart_problem::line_not_found).
[[nodiscard]] inline std::string missing_cart_line(std::int64_t product_id) {
    return "The cart has no line of product " + std::to_string(product_id);
}

// Why the coupon `known` (core::known_coupon's form of a code) gives nothing on `user`'s cart as it is now,
// or nullopt when it gives something (the store keeps the code; totals recheck it); the store's error when
// the cart cannot be read (blocking: call inside app.storage()).
[[nodiscard]] inline core::result<std::optional<std::string>> coupon_refusal(
    const store_services& app, std::int64_t user, const std::string& known
) {
    const auto cart = app.shop().cart_of(user);
    if (!cart) {
        return cart.error();
    }
    const auto applied = core::apply_coupon(known, shop_support::price(app, *cart).subtotal);
    if (applied.problem) {
        return std::optional<std::string>(core::coupon_problem_message(known, *applied.problem));
    }
    return std::optional<std::string>();
}

}  // namespace storefront::server::cart_actions
