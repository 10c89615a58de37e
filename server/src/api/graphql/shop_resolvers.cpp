// The shop over GraphQL (issue 42): the caller's cart, orders and payments, with the REST routes' rules and
// stores (the same JSON objects, parsed). Every field needs a bearer token; answers depend on the caller,
// so the answer cache never keeps them (handlers_graphql.cpp). Resolvers run on the storage pool.

#include <optional>
#include <string>

#include <boost/json/parse.hpp>

#include "core/card_payments.hpp"
#include "core/cart_rules.hpp"
#include "core/coupons.hpp"
#include "core/order_states.hpp"
#include "core/shipping_address.hpp"
#include "graph_call.hpp"
#include "graph_values.hpp"
#include "resolvers.hpp"
#include "server/api/store/cart_actions.hpp"
#include "server/api/store/shop_json.hpp"
#include "server/api/store/shop_support.hpp"

namespace storefront::server {

namespace {

using graphql::resolve_info;
using graphql::resolved;
using shop_support::now_ms;

resolved unauthorized() {
    return resolved::fail("Unauthorized", "UNAUTHENTICATED");
}

resolved bad_input(std::string message) {
    return resolved::fail(std::move(message), "BAD_USER_INPUT");
}

// The shop's refusals: not found, or a conflict with the data's state (stock, empty cart, order state).
resolved shop_refused(boost::system::error_code ec, std::string message) {
    if (ec == core::errc::not_found) {
        return resolved::fail(std::move(message), "NOT_FOUND");
    }
    if (ec == core::errc::out_of_stock || ec == core::errc::cart_empty ||
        ec == core::errc::transition_not_allowed) {
        return resolved::fail(std::move(message), "CONFLICT");
    }
    return refused(ec, message);
}

// Whose orders and payments the caller sees (nullopt: an admin, every one's).
std::optional<std::int64_t> scope_of(const core::actor& who) {
    return who.is_admin() ? std::nullopt : who.user_id;
}

resolved cart_value(graph_call& call, const core::cart& cart) {
    return resolved::ok(boost::json::parse(shop_json::cart_json(cart, shop_support::price(call.app, cart))));
}

resolved order_value(const core::shop_order& order) {
    return resolved::ok(boost::json::parse(shop_json::order_json(order)));
}

// An Int argument, or nullopt.
std::optional<std::int64_t> int_argument(const resolve_info& info, std::string_view name) {
    const auto* v = info.arguments.if_contains(name);
    if (v == nullptr || !v->is_int64()) {
        return std::nullopt;
    }
    return v->get_int64();
}

// One change of the caller's cart with `rule` (cart_actions.hpp), as REST's cart routes make it.
template <class Rule>
resolved change_cart(graph_call& call, std::int64_t user, std::int64_t product_id, Rule rule) {
    const auto changed = cart_actions::change(call.app, user, rule);
    if (!changed.cart) {
        if (changed.problem == core::cart_problem::line_not_found) {
            return resolved::fail(cart_actions::missing_cart_line(product_id), "NOT_FOUND");
        }
        if (changed.problem) {
            return bad_input(core::cart_problem_message(*changed.problem));
        }
        const auto& shortage = changed.shortage;
        if (changed.cart.error() == core::errc::out_of_stock) {
            return shop_refused(
                changed.cart.error(),
                "Not enough stock of product " + std::to_string(shortage.product_id) + ": " +
                    std::to_string(shortage.available) + " left"
            );
        }
        return shop_refused(changed.cart.error(), missing_text("Product", shortage.product_id));
    }
    return resolved::ok(boost::json::parse(shop_json::cart_json(*changed.cart, changed.totals)));
}

// Runs `fn(call, who)` for a signed-in caller, else UNAUTHENTICATED.
template <class Fn>
graphql::resolver signed_in(Fn fn) {
    return guarded([fn](const resolve_info& info) -> resolved {
        auto& call = call_of(info);
        const auto& who = caller_of(call);
        if (!who.user_id) {
            return unauthorized();
        }
        return fn(info, call, who);
    });
}

resolved cart(const resolve_info&, graph_call& call, const core::actor& who) {
    const auto found = call.app.shop().cart_of(*who.user_id);
    return found ? cart_value(call, *found) : refused(found.error());
}

// orders(status, limit, offset): the caller's orders (an admin's: everyone's), in id order.
resolved orders(const resolve_info& info, graph_call& call, const core::actor& who) {
    storage::order_filter filter;
    filter.user_id = scope_of(who);
    if (const auto* status = info.arguments.if_contains("status"); status != nullptr && status->is_string()) {
        filter.status = core::parse_shop_order_status(status->get_string());
        if (!filter.status) {
            return bad_input(
                "status must be one of: pending_payment, paid, shipped, delivered, cancelled, expired"
            );
        }
    }
    const auto limit = int_argument(info, "limit").value_or(10);
    const auto offset = int_argument(info, "offset").value_or(0);
    if (limit < 1 || limit > static_cast<std::int64_t>(core::max_page_limit) || offset < 0) {
        return bad_input("limit must be from 1 to 100 and offset at least 0");
    }
    const auto found = call.app.shop().list_orders(filter);
    if (!found) {
        return refused(found.error());
    }
    const auto slice =
        core::page_slice({static_cast<std::size_t>(offset), static_cast<std::size_t>(limit)}, found->size());
    const std::vector<core::shop_order> page(found->begin() + slice.first, found->begin() + slice.last);
    return resolved::ok(boost::json::parse(shop_json::orders_json(page)));
}

resolved order(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    const auto found = call.app.shop().find_order(*id, scope_of(who));
    return found ? order_value(*found) : shop_refused(found.error(), missing_text("Order", *id));
}

resolved add_to_cart(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto product = id_argument(info, "productId");
    const auto quantity = int_argument(info, "quantity");
    if (!product || *product <= 0) {
        return bad_input("productId must be a positive integer");
    }
    if (!quantity || *quantity < core::min_line_quantity || *quantity > core::max_line_quantity) {
        return bad_input(core::cart_problem_message(core::cart_problem::quantity_out_of_range));
    }
    return change_cart(
        call, *who.user_id, *product, cart_actions::add_item(*product, static_cast<std::int32_t>(*quantity))
    );
}

resolved update_cart_item(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto product = id_argument(info, "productId");
    const auto quantity = int_argument(info, "quantity");
    if (!product || *product <= 0) {
        return bad_input("productId must be a positive integer");
    }
    if (!quantity || *quantity < 0 || *quantity > core::max_line_quantity) {
        return bad_input("quantity must be an integer from 0 to 99");
    }
    return change_cart(
        call, *who.user_id, *product, cart_actions::set_item(*product, static_cast<std::int32_t>(*quantity))
    );
}

resolved remove_from_cart(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto product = id_argument(info, "productId");
    if (!product || *product <= 0) {
        return bad_input("productId must be a positive integer");
    }
    return change_cart(call, *who.user_id, *product, cart_actions::remove_item(*product));
}

resolved apply_coupon(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto* arg = info.arguments.if_contains("code");
    const std::string code = arg != nullptr && arg->is_string() ? std::string(arg->get_string()) : "";
    const auto known = core::known_coupon(code);
    if (!known) {
        return bad_input(core::coupon_problem_message(code, core::coupon_problem::unknown_code));
    }
    const auto gives_nothing = cart_actions::coupon_refusal(call.app, *who.user_id, *known);
    if (!gives_nothing) {
        return refused(gives_nothing.error());
    }
    if (*gives_nothing) {
        return bad_input(**gives_nothing);
    }
    return change_cart(call, *who.user_id, 0, cart_actions::set_coupon(*known));
}

resolved checkout(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto* arg = info.arguments.if_contains("shippingAddress");
    if (arg == nullptr || !arg->is_object()) {
        return bad_input("shippingAddress must be an object");
    }
    const auto address = core::read_shipping_address(input_of(*arg));
    if (!address) {
        core::validation_errors problems;
        for (const auto& p : address.error()) {
            problems.messages.push_back(p.message);
        }
        return invalid_input(problems);
    }
    core::stock_shortage shortage;
    const auto made =
        call.app.shop().checkout({*who.user_id, *address, now_ms(), call.app.order_ttl_ms()}, &shortage);
    if (!made) {
        if (made.error() == core::errc::cart_empty) {
            return shop_refused(made.error(), "The cart is empty");
        }
        return shop_refused(
            made.error() == core::errc::not_found ? core::make_error_code(core::errc::out_of_stock)
                                                  : made.error(),
            "Not enough stock of product " + std::to_string(shortage.product_id) + ": " +
                std::to_string(shortage.available) + " left"
        );
    }
    return order_value(*made);
}

resolved pay(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto id = id_argument(info, "orderId");
    if (!id) {
        return bad_id();
    }
    const auto* arg = info.arguments.if_contains("card");
    if (arg == nullptr || !arg->is_object()) {
        return bad_input("card must be an object");
    }
    const auto& c = arg->get_object();
    const auto text = [&](std::string_view name) {
        const auto* v = c.if_contains(name);
        return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    const auto number = [&](std::string_view name) {
        const auto* v = c.if_contains(name);
        return v != nullptr && v->is_int64() ? static_cast<std::int32_t>(v->get_int64()) : 0;
    };
    const auto now = now_ms();
    const auto outcome =
        core::charge_card({text("number"), number("expMonth"), number("expYear"), text("cvc")}, now);
    if (!outcome.decision) {
        return bad_input(
            core::card_problem_message(outcome.problem.value_or(core::card_problem::invalid_number))
        );
    }
    const auto recorded = call.app.shop().record_payment(*id, scope_of(who), *outcome.decision, now);
    if (!recorded) {
        return shop_refused(
            recorded.error(),
            recorded.error() == core::errc::not_found ? missing_text("Order", *id)
                                                      : "Only a pending_payment order can be paid"
        );
    }
    const std::string url = std::string(call.app.public_url()) + std::string(call.app.files_path()) +
                            "/api/v1/payments/" + std::to_string(recorded->id) + "/3ds";
    return resolved::ok(boost::json::parse(shop_json::payment_json(*recorded, url)));
}

resolved cancel_order(const resolve_info& info, graph_call& call, const core::actor& who) {
    const auto id = id_argument(info);
    if (!id) {
        return bad_id();
    }
    const auto moved =
        call.app.shop().change_order_status(*id, core::shop_order_status::cancelled, now_ms(), scope_of(who));
    if (!moved) {
        if (moved.error() == core::errc::transition_not_allowed) {
            const auto found = call.app.shop().find_order(*id, scope_of(who));
            return shop_refused(
                moved.error(),
                found ? core::transition_message(found->status, core::shop_order_status::cancelled)
                      : "Not allowed in the order's current state"
            );
        }
        return shop_refused(moved.error(), missing_text("Order", *id));
    }
    return order_value(*moved);
}

}  // namespace

void add_shop_resolvers(graphql::schema& schema) {
    schema.resolve("Query", "cart", signed_in(cart));
    schema.resolve("Query", "orders", signed_in(orders));
    schema.resolve("Query", "order", signed_in(order));
    schema.resolve("Mutation", "addToCart", signed_in(add_to_cart));
    schema.resolve("Mutation", "updateCartItem", signed_in(update_cart_item));
    schema.resolve("Mutation", "removeFromCart", signed_in(remove_from_cart));
    schema.resolve("Mutation", "applyCoupon", signed_in(apply_coupon));
    schema.resolve("Mutation", "checkout", signed_in(checkout));
    schema.resolve("Mutation", "pay", signed_in(pay));
    schema.resolve("Mutation", "cancelOrder", signed_in(cancel_order));
}

}  // namespace storefront::server
