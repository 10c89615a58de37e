#pragma once
// What the shop's handlers (handlers_cart, handlers_orders, handlers_payments) share, private to
// server_lib: whose data a caller sees, the cart priced from the catalogue, the answers naming a product
// short of stock, and Idempotency-Key handling (issue 42).

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/awaitable.hpp>

#include "core/cart_rules.hpp"
#include "core/idempotency.hpp"
#include "core/money.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "server/api/store/store_params.hpp"
#include "server/api/store/store_services.hpp"
#include "server/codec/response.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/request_context.hpp"
#include "storage/storage_error.hpp"

namespace storefront::server::shop_support {

// Milliseconds since the epoch, the shop's clock.
[[nodiscard]] inline core::timestamp_ms now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// The caller of a bearer route (the access rule established one).
[[nodiscard]] inline std::int64_t caller(const request_context& ctx) {
    return ctx.actor.user_id.value_or(0);
}

// Whose orders and payments the caller may see: an admin's every one's (nullopt), a customer's their own.
[[nodiscard]] inline std::optional<std::int64_t> owner_scope(const request_context& ctx) {
    if (ctx.actor.is_admin()) {
        return std::nullopt;
    }
    return caller(ctx);
}

// `cart` priced from the catalogue now (blocking: call inside app.storage()); gone products are left out.
[[nodiscard]] inline core::cart_totals price(const store_services& app, const core::cart& cart) {
    return core::price_cart(
        cart.lines,
        cart.coupon,
        [&](std::int64_t id) -> std::optional<core::catalogue_entry> {
            const auto product = app.catalogue().find_product(id);
            if (!product) {
                return std::nullopt;
            }
            return core::catalogue_entry{product->title, core::price_to_cents(product->price)};
        }
    );
}

// 409 naming the product short of stock and what is left; 404 for a product that does not exist.
[[nodiscard]] inline response shortage_answer(boost::system::error_code ec, const core::stock_shortage& s) {
    if (ec == core::errc::not_found) {
        return error_response(ec, missing_text("Product", s.product_id));
    }
    if (ec == core::errc::out_of_stock) {
        return error_response(
            ec,
            "Not enough stock of product " + std::to_string(s.product_id) + ": " +
                std::to_string(s.requested) + " requested, " + std::to_string(s.available) + " left"
        );
    }
    return error_response(ec);
}

// 400 with one validation message (the shop's handlers check their own body fields).
[[nodiscard]] inline response invalid(std::string message) {
    return validation_failed(core::validation_errors{{std::move(message)}});
}

// 404 "Order 7 not found" (also for another user's order: its existence is not revealed).
[[nodiscard]] inline response order_missing(std::int64_t id) {
    return error_response(core::errc::not_found, missing_text("Order", id));
}

// The answer to a refused lookup or change of order `id`: order_missing for one the caller cannot see, else
// the errc's.
[[nodiscard]] inline response order_refusal(std::int64_t id, boost::system::error_code ec) {
    return ec == core::errc::not_found ? order_missing(id) : error_response(ec);
}

// The answer to a refused change of order `id` (a status move, a payment): order_refusal, or for a move the
// order's state does not allow the text `name` gives of the order as it is now (nullptr: gone meanwhile;
// empty text: the default).
template <class Name>
boost::asio::awaitable<response> refused_order_change(
    store_services& app,
    boost::system::error_code ec,
    std::int64_t id,
    std::optional<std::int64_t> owner,
    Name name
) {
    if (ec != core::errc::transition_not_allowed) {
        co_return order_refusal(id, ec);
    }
    const auto order = co_await app.storage([&] { return app.shop().find_order(id, owner); });
    co_return error_response(ec, name(order ? &*order : nullptr));
}

// `json` with `status` for the caller only (a cart, orders, payments): no shared cache keeps it.
[[nodiscard]] inline response private_json(http::status status, std::string json) {
    response r = json_response(status, std::move(json));
    r.with_header("Cache-Control", "private, no-store");
    return r;
}

// GET of what order {id} holds for the caller (the order, its payments): `read` (a shop store call taking
// the id and the owner scope, e.g. &storage::shop_store::find_order) -> result, answered privately as
// `json` (value -> text); 404 for an order the caller cannot see.
template <class Read, class Json>
boost::asio::awaitable<response> order_read(request_context& ctx, store_services& app, Read read, Json json) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    const auto owner = owner_scope(ctx);
    const auto found = co_await app.storage([&] { return std::invoke(read, app.shop(), *id, owner); });
    if (!found) {
        co_return order_refusal(*id, found.error());
    }
    co_return private_json(http::status::ok, json(*found));
}

// Runs `run` (a callable giving awaitable<response>) under the request's Idempotency-Key, if it has one
// (IETF httpapi idempotency-key draft): the same key and request within 24 h answer the first answer again
// with `Idempotent-Replayed: true`; another request with the key 422; while the first still runs 409.
// Keys are the caller's, in the request's data set (each sandbox has its own shop store). A 5xx answer or an
// exception is not kept: the key is released, so a retry runs again.
template <class Run>
boost::asio::awaitable<response> idempotent(request_context& ctx, store_services& app, Run run) {
    const auto header = ctx.request["Idempotency-Key"];
    if (header.empty() && ctx.request.find("Idempotency-Key") == ctx.request.end()) {
        co_return co_await run();
    }
    const auto key = core::parse_idempotency_key(header);
    if (!key) {
        co_return http_error(
            http::status::bad_request,
            "Idempotency-Key must be 1 to " + std::to_string(core::max_idempotency_key_length) +
                " visible ASCII characters"
        );
    }
    const std::int64_t user = caller(ctx);
    const std::string fingerprint = core::request_fingerprint(
        std::string_view(ctx.request.method_string()), ctx.path, ctx.request.body()
    );
    const auto begun =
        co_await app.storage([&] { return app.shop().begin_request(user, *key, fingerprint, now_ms()); });
    if (!begun) {
        co_return error_response(begun.error());
    }
    if (*begun) {
        response replayed = json_response(static_cast<http::status>((*begun)->status), (*begun)->body);
        replayed.with_header("Idempotent-Replayed", "true");
        replayed.deterministic = false;
        co_return replayed;
    }
    std::exception_ptr failure;
    std::optional<response> answer;
    try {
        answer = co_await run();
    } catch (...) {
        failure = std::current_exception();
    }
    if (failure || static_cast<unsigned>(answer->status) >= 500) {
        (void)co_await app.storage([&] { return app.shop().abandon_request(user, *key); });
        if (failure) {
            std::rethrow_exception(failure);
        }
        co_return std::move(*answer);
    }
    render_error(*answer, error_style::store);  // kept as it went out, to be sent again as it is
    const storage::stored_answer kept{static_cast<int>(answer->status), std::string(answer->payload())};
    const auto stored =
        co_await app.storage([&] { return app.shop().finish_request(user, *key, kept, now_ms()); });
    if (!stored) {
        co_return error_response(stored.error());
    }
    co_return std::move(*answer);
}

}  // namespace storefront::server::shop_support
