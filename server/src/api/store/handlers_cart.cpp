// Cart handlers (issue 42): the caller's own cart, priced from the catalogue on every answer (a price sent
// by the client is ignored), changed one atomic store call at a time with core's cart rules.

#include <optional>
#include <string>

#include "core/cart_rules.hpp"
#include "core/coupons.hpp"
#include "core/validation.hpp"
#include "server/api/store/cart_actions.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/shop_json.hpp"
#include "server/api/store/shop_support.hpp"
#include "server/api/store/store_params.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server {

namespace {

using namespace shop_support;

// The {productId} segment: a positive integer, else 400 naming it.
or_response<std::int64_t> path_product(const request_context& ctx) {
    const auto id = core::parse_path_id(store_params::decoded_param(ctx, "productId"));
    if (!id || *id <= 0) {
        return invalid("productId must be a positive integer");
    }
    return *id;
}

// The body's `quantity` (core::read_quantity; 0 allowed when `allow_zero`), or 400 naming it.
or_response<std::int32_t> body_quantity(const core::input_fields& fields, bool allow_zero) {
    const auto found = fields.find("quantity");
    if (found == fields.end()) {
        return invalid("quantity is required");
    }
    const auto quantity = core::read_quantity(found->second, allow_zero);
    if (!quantity) {
        return invalid(
            allow_zero ? "quantity must be an integer from 0 to 99"
                       : core::cart_problem_message(core::cart_problem::quantity_out_of_range)
        );
    }
    return *quantity;
}

// The cart as stored, priced now: 200 (or `status`).
boost::asio::awaitable<response> cart_answer(
    store_services& app, const core::cart& cart, http::status status = http::status::ok
) {
    const auto totals = co_await app.storage([&] { return price(app, cart); });
    co_return private_json(status, shop_json::cart_json(cart, totals));
}

// One change of the caller's cart with `rule` (cart_actions.hpp): the stored cart priced (201 or 200), or
// 400/404 naming the problem, 404 for an unknown product, 409 for too little stock.
template <class Rule>
boost::asio::awaitable<response> change(
    request_context& ctx, store_services& app, Rule rule, http::status status, std::int64_t product_id
) {
    const std::int64_t user = caller(ctx);
    const auto changed = co_await app.shop_write([&] { return cart_actions::change(app, user, rule); });
    if (!changed.cart) {
        if (changed.problem == core::cart_problem::line_not_found) {
            co_return error_response(core::errc::not_found, cart_actions::missing_cart_line(product_id));
        }
        if (changed.problem) {
            co_return invalid(core::cart_problem_message(*changed.problem));
        }
        co_return shortage_answer(changed.cart.error(), changed.shortage);
    }
    co_return private_json(status, shop_json::cart_json(*changed.cart, changed.totals));
}

// The body's `productId`: a positive integer (a JSON number, or a form field's digits).
or_response<std::int64_t> body_product(const core::input_fields& fields) {
    const auto found = fields.find("productId");
    if (found == fields.end()) {
        return invalid("productId is required");
    }
    const auto& v = found->second;
    const bool numeric = v.type == core::input_value::kind::number || v.type == core::input_value::kind::text;
    const auto id = numeric ? core::parse_path_id(v.text) : std::nullopt;
    if (!id || *id <= 0) {
        return invalid("productId must be a positive integer");
    }
    return *id;
}

// A line written (POST /cart/items, PATCH /cart/items/{productId}) by `make` (cart_actions::add_item or
// set_item) of the product and the body's quantity: the product of the {productId} segment when `in_path`
// (where quantity 0 removes the line), else of the body. The first problem is answered, in that order.
template <class Make>
boost::asio::awaitable<response> line_written(
    request_context& ctx, store_services& app, bool in_path, Make make, http::status status
) {
    const auto from_path = in_path ? path_product(ctx) : or_response<std::int64_t>(std::int64_t{0});
    if (!from_path) {
        co_return from_path.error();
    }
    const auto fields = decode_input(ctx.request[http::field::content_type], ctx.request.body());
    if (!fields) {
        co_return fields.error();
    }
    const auto product = in_path ? from_path : body_product(*fields);
    if (!product) {
        co_return product.error();
    }
    const auto quantity = body_quantity(*fields, in_path);
    if (!quantity) {
        co_return quantity.error();
    }
    co_return co_await change(ctx, app, make(*product, *quantity), status, *product);
}

}  // namespace

// GET /cart : the caller's open cart, priced from the catalogue now (an empty one when there is none)
handler_result handle_get_cart(request_context& ctx, store_services& app) {
    const std::int64_t user = caller(ctx);
    const auto cart = co_await app.storage([&] { return app.shop().cart_of(user); });
    if (!cart) {
        co_return error_response(cart.error());
    }
    co_return co_await cart_answer(app, *cart);
}

// DELETE /cart : the cart emptied (lines and coupon); 200 the empty cart
handler_result handle_delete_cart(request_context& ctx, store_services& app) {
    const std::int64_t user = caller(ctx);
    const auto cleared = co_await app.storage([&] { return app.shop().clear_cart(user); });
    if (!cleared) {
        co_return error_response(cleared.error());
    }
    core::cart empty;
    empty.user_id = user;
    co_return co_await cart_answer(app, empty);
}

// POST /cart/items {productId, quantity} : 201 the cart with `quantity` more of the product
handler_result handle_post_cart_item(request_context& ctx, store_services& app) {
    return line_written(ctx, app, false, &cart_actions::add_item, http::status::created);
}

// PATCH /cart/items/{productId} {quantity} : the line's quantity set (0 removes it)
handler_result handle_patch_cart_item(request_context& ctx, store_services& app) {
    return line_written(ctx, app, true, &cart_actions::set_item, http::status::ok);
}

// DELETE /cart/items/{productId} : the product's line removed
handler_result handle_delete_cart_item(request_context& ctx, store_services& app) {
    const auto product = path_product(ctx);
    if (!product) {
        co_return product.error();
    }
    co_return co_await change(ctx, app, cart_actions::remove_item(*product), http::status::ok, *product);
}

// POST /cart/coupon {code} : the coupon applied (422 naming why an unknown or inapplicable one is not)
handler_result handle_post_cart_coupon(request_context& ctx, store_services& app) {
    const auto fields = decode_input(ctx.request[http::field::content_type], ctx.request.body());
    if (!fields) {
        co_return fields.error();
    }
    const auto found = fields->find("code");
    if (found == fields->end() || (found->second.type != core::input_value::kind::string &&
                                   found->second.type != core::input_value::kind::text)) {
        co_return invalid("code must be a string");
    }
    const std::string& code = found->second.text;
    const auto known = core::known_coupon(code);
    if (!known) {
        co_return http_error(
            http::status::unprocessable_entity,
            core::coupon_problem_message(code, core::coupon_problem::unknown_code)
        );
    }
    const std::int64_t user = caller(ctx);
    const auto gives_nothing =
        co_await app.storage([&] { return cart_actions::coupon_refusal(app, user, *known); });
    if (!gives_nothing) {
        co_return error_response(gives_nothing.error());
    }
    if (*gives_nothing) {
        co_return http_error(http::status::unprocessable_entity, **gives_nothing);
    }
    co_return co_await change(ctx, app, cart_actions::set_coupon(*known), http::status::ok, 0);
}

// DELETE /cart/coupon : the coupon taken off
handler_result handle_delete_cart_coupon(request_context& ctx, store_services& app) {
    co_return co_await change(ctx, app, cart_actions::clear_coupon(), http::status::ok, 0);
}

}  // namespace storefront::server
