// Order handlers (issue 42): checkout of the caller's cart (one store transaction: stock taken, order
// made, cart emptied; honours Idempotency-Key), the caller's orders (an admin's: everyone's, filterable),
// cancel by the owner or an admin, and an admin's shipped/delivered moves.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/order_states.hpp"
#include "core/pagination.hpp"
#include "core/shipping_address.hpp"
#include "core/validation.hpp"
#include "list_answer.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/shop_json.hpp"
#include "server/api/store/shop_support.hpp"
#include "server/api/store/store_params.hpp"
#include "server/services/shop_counters.hpp"

namespace storefront::server {

namespace {

using namespace shop_support;

constexpr std::string_view status_choices = "pending_payment, paid, shipped, delivered, cancelled, expired";

// The answer to a refused status change of order `id` to `to`: 404, or 409 naming the moves allowed from
// the order's current state.
boost::asio::awaitable<response> refused_change(
    store_services& app,
    boost::system::error_code ec,
    std::int64_t id,
    core::shop_order_status to,
    std::optional<std::int64_t> owner
) {
    return refused_order_change(app, ec, id, owner, [to](const core::shop_order* order) {
        return order ? core::transition_message(order->status, to) : std::string();
    });
}

// Moves order `id` to `to` (owner-scoped unless admin): 200 the order.
boost::asio::awaitable<response> move_order(
    request_context& ctx, store_services& app, std::int64_t id, core::shop_order_status to
) {
    const auto owner = owner_scope(ctx);
    const auto moved =
        co_await app.storage([&] { return app.shop().change_order_status(id, to, now_ms(), owner); });
    if (!moved) {
        co_return co_await refused_change(app, moved.error(), id, to, owner);
    }
    if (to == core::shop_order_status::cancelled) {
        const auto payments = co_await app.storage([&] { return app.shop().payments_of(id, owner); });
        for (const auto& p : payments ? *payments : std::vector<core::payment>{}) {
            if (p.status == core::payment_status::refunded) {
                shop_counters::count_payment(p.status);  // the refund this cancel made
            }
        }
    }
    std::string json = shop_json::order_json(*moved);
    co_await app.publish(
        to == core::shop_order_status::cancelled ? "order.cancelled" : "order.updated",
        json,
        {.owner = moved->user_id}
    );
    co_return json_response(http::status::ok, std::move(json));
}

// The checkout itself (inside the Idempotency-Key handling).
boost::asio::awaitable<response> checkout(request_context& ctx, store_services& app) {
    const auto body = shop_json::object_body(ctx);
    if (!body) {
        co_return body.error();
    }
    const auto fields = shop_json::nested_fields(*body, "shippingAddress");
    if (!fields) {
        co_return fields.error();
    }
    const auto address = core::read_shipping_address(*fields);
    if (!address) {
        core::validation_errors problems;
        for (const auto& p : address.error()) {
            problems.messages.push_back(p.message);
        }
        co_return validation_failed(problems);
    }
    storage::checkout_request request{caller(ctx), *address, now_ms(), app.order_ttl_ms()};
    core::stock_shortage shortage;
    const auto order = co_await app.shop_write([&] { return app.shop().checkout(request, &shortage); });
    if (!order) {
        if (order.error() == core::errc::not_found) {
            // A product deleted since it was added: the cart cannot be ordered as it is.
            co_return error_response(
                core::errc::out_of_stock,
                "Product " + std::to_string(shortage.product_id) + " in the cart is no longer sold"
            );
        }
        co_return shortage_answer(order.error(), shortage);
    }
    std::string json = shop_json::order_json(*order);
    co_await app.publish("order.created", json, {.owner = order->user_id});
    co_return json_response(http::status::created, std::move(json));
}

}  // namespace

// POST /orders {shippingAddress} : 201 the order made of the caller's cart (Idempotency-Key honoured)
handler_result handle_post_order(request_context& ctx, store_services& app) {
    co_return co_await idempotent(ctx, app, [&] { return checkout(ctx, app); });
}

// GET /orders?offset=&limit=&sortBy=&order=&status=&userId= : the caller's orders (an admin: everyone's,
// `userId` filters), with X-Total-Count and Link
handler_result handle_get_orders(request_context& ctx, store_services& app) {
    core::validation_errors problems;
    store_lists::list_request request;
    if (auto page = core::parse_page(ctx.query)) {
        request.page = *page;
    } else {
        problems = page.error();
    }
    storage::order_filter filter;
    filter.user_id = owner_scope(ctx);
    if (const auto status = core::one_value(ctx.query, "status", problems.messages)) {
        filter.status = core::parse_shop_order_status(*status);
        if (!filter.status) {
            problems.messages.push_back("status must be one of: " + std::string(status_choices));
        }
    }
    if (ctx.actor.is_admin()) {
        if (const auto user = core::one_value(ctx.query, "userId", problems.messages)) {
            const auto id = core::parse_integer(*user);
            if (!id || *id <= 0) {
                problems.messages.push_back("userId must be a positive integer");
            } else {
                filter.user_id = *id;
            }
        }
    }
    storage::order_sort sort;
    if (const auto by = core::one_value(ctx.query, "sortBy", problems.messages)) {
        if (*by == "createdAt") {
            sort.by = storage::order_sort::key::created_at;
        } else if (*by == "total") {
            sort.by = storage::order_sort::key::total;
        } else if (*by != "id") {
            problems.messages.push_back("sortBy must be one of: id, createdAt, total");
        }
    }
    if (const auto order = core::one_value(ctx.query, "order", problems.messages)) {
        if (*order != "asc" && *order != "desc") {
            problems.messages.push_back("order must be one of: asc, desc");
        }
        sort.descending = *order == "desc";
    }
    if (!problems.messages.empty()) {
        co_return validation_failed(problems);
    }
    // The store sorts, slices and counts: only the page's orders are read.
    const auto page =
        co_await app.storage([&] { return app.shop().list_orders_page(filter, sort, request.page); });
    if (!page) {
        co_return error_response(page.error());
    }
    co_return store_lists::list_response(
        ctx, request, {private_json(http::status::ok, shop_json::orders_json(page->orders)), page->total}
    );
}

// GET /orders/{id} : one order of the caller's (another user's: 404, as if there were none)
handler_result handle_get_order(request_context& ctx, store_services& app) {
    return order_read(ctx, app, &storage::shop_store::find_order, &shop_json::order_json);
}

// POST /orders/{id}/cancel : cancelled by its owner or an admin (stock given back, a payment refunded)
handler_result handle_post_order_cancel(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    co_return co_await move_order(ctx, app, *id, core::shop_order_status::cancelled);
}

// PATCH /orders/{id} {status} : an admin moves a paid order to shipped, a shipped one to delivered
handler_result handle_patch_order(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    if (!ctx.actor.is_admin()) {
        co_return error_response(core::errc::forbidden, "Only an admin may change an order's status");
    }
    const auto fields = decode_input(ctx.request[http::field::content_type], ctx.request.body());
    if (!fields) {
        co_return fields.error();
    }
    const auto found = fields->find("status");
    const auto status =
        found == fields->end() ? std::nullopt : core::parse_shop_order_status(found->second.text);
    if (!status || !core::admin_settable(*status) ||
        (found->second.type != core::input_value::kind::string &&
         found->second.type != core::input_value::kind::text)) {
        co_return invalid("status must be one of: shipped, delivered");
    }
    co_return co_await move_order(ctx, app, *id, *status);
}

}  // namespace storefront::server
