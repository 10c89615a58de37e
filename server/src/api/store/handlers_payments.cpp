// Payment handlers (issue 42): the fake processor (core/card_payments.hpp) decides on the card, the store
// keeps the payment (brand and last four digits only) and, when it succeeded, makes the order paid, in one
// transaction. The card number and CVC live only in this request's memory: never stored, logged or
// returned. POST /orders/{id}/payments honours Idempotency-Key.

#include <string>

#include "core/card_payments.hpp"
#include "core/order_states.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/shop_json.hpp"
#include "server/api/store/shop_support.hpp"
#include "server/api/store/store_params.hpp"
#include "server/services/shop_counters.hpp"

namespace storefront::server {

namespace {

using namespace shop_support;

// Where payment `id` is completed after 3-D Secure: under this view's public URL and sandbox path.
std::string three_ds_base(const store_services& app) {
    return std::string(app.public_url()) + std::string(app.files_path()) + "/api/v1/payments/";
}

// A payment's answer: 201 (or `ok`) when it succeeded or waits for 3-D Secure, 402 with the same body when
// it failed.
response payment_answer(const store_services& app, const core::payment& p, http::status ok) {
    shop_counters::count_payment(p.status);
    const auto status = p.status == core::payment_status::failed ? http::status::payment_required : ok;
    return private_json(
        status, shop_json::payment_json(p, three_ds_base(app) + std::to_string(p.id) + "/3ds")
    );
}

// Tells the order's owner and admins: payment.succeeded|failed|requires_action, and order.updated with
// `paid_order` (the order as the write left it) when the payment made the order paid.
boost::asio::awaitable<void> publish_payment(
    store_services& app, const core::payment& p, const core::shop_order& paid_order
) {
    const event_audience audience{.owner = p.user_id};
    co_await app.publish(
        "payment." + std::string(core::to_string(p.status)),
        shop_json::payment_json(p, three_ds_base(app) + std::to_string(p.id) + "/3ds"),
        audience
    );
    if (p.status == core::payment_status::succeeded) {
        co_await app.publish("order.updated", shop_json::order_json(paid_order), audience);
    }
}

// The answer to a refused payment of order `id`: 404, or 409 naming the order's state.
boost::asio::awaitable<response> refused_payment(
    store_services& app, boost::system::error_code ec, std::int64_t id, std::optional<std::int64_t> owner
) {
    return refused_order_change(app, ec, id, owner, [id](const core::shop_order* order) {
        const std::string state = order ? std::string(core::to_string(order->status)) : "not payable";
        return "Order " + std::to_string(id) + " is " + state + "; only a pending_payment order can be paid" +
               (order && order->status == core::shop_order_status::pending_payment ? " (it has just expired)"
                                                                                   : "");
    });
}

// The charge decision for the request's card, or the 4xx its body or card gets (400, 422; 402 for an
// expired card, declined as a processor declines it, nothing kept).
or_response<core::charge_decision> card_decision(request_context& ctx, core::timestamp_ms now) {
    const auto body = shop_json::object_body(ctx);
    if (!body) {
        return body.error();
    }
    const auto card = shop_json::read_card(*body);
    if (!card) {
        return card.error();
    }
    const auto outcome = core::charge_card(*card, now);
    if (!outcome.decision) {
        const auto problem = outcome.problem.value_or(core::card_problem::invalid_number);
        if (problem == core::card_problem::expired) {
            return http_error(http::status::payment_required, core::card_problem_message(problem));
        }
        return validation_failed(core::validation_errors{{core::card_problem_message(problem)}});
    }
    return *outcome.decision;
}

// The payment itself (inside the Idempotency-Key handling). The order's state decides before the card:
// another user's order is 404 and a settled one 409, whatever the card. The write checks both, so the order
// is read first only when the card is refused.
boost::asio::awaitable<response> pay(request_context& ctx, store_services& app, std::int64_t order_id) {
    const auto owner = owner_scope(ctx);
    const auto now = now_ms();
    const auto decision = card_decision(ctx, now);
    if (!decision) {
        const auto order = co_await app.storage([&] { return app.shop().find_order(order_id, owner); });
        if (!order) {
            co_return co_await refused_payment(app, order.error(), order_id, owner);
        }
        if (order->status != core::shop_order_status::pending_payment) {
            co_return co_await refused_payment(app, core::errc::transition_not_allowed, order_id, owner);
        }
        co_return decision.error();
    }
    core::shop_order paid_order;
    const auto recorded = co_await app.shop_write([&] {
        return app.shop().record_payment(order_id, owner, *decision, now, &paid_order);
    });
    if (!recorded) {
        co_return co_await refused_payment(app, recorded.error(), order_id, owner);
    }
    co_await publish_payment(app, *recorded, paid_order);
    co_return payment_answer(app, *recorded, http::status::created);
}

}  // namespace

// POST /orders/{id}/payments {card: {number, expMonth, expYear, cvc}} : 201 the payment (the order paid),
// 201 requires_action with nextAction for 3-D Secure, 402 a failed one (the order stays payable)
handler_result handle_post_order_payment(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    co_return co_await idempotent(ctx, app, [&] { return pay(ctx, app, *id); });
}

// GET /orders/{id}/payments : the order's payments, oldest first
handler_result handle_get_order_payments(request_context& ctx, store_services& app) {
    return order_read(
        ctx,
        app,
        &storage::shop_store::payments_of,
        [&app](const std::vector<core::payment>& payments) {
            return shop_json::payments_json(payments, three_ds_base(app));
        }
    );
}

// POST /payments/{id}/3ds {result: "approve" | "fail"} : the 3-D Secure step completed: 200 succeeded (the
// order paid) or 402 failed
handler_result handle_post_payment_3ds(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    const auto fields = decode_input(ctx.request[http::field::content_type], ctx.request.body());
    if (!fields) {
        co_return fields.error();
    }
    const auto found = fields->find("result");
    const std::string_view result = found == fields->end() ? std::string_view{} : found->second.text;
    const bool text = found != fields->end() && (found->second.type == core::input_value::kind::string ||
                                                 found->second.type == core::input_value::kind::text);
    if (!text || (result != "approve" && result != "fail")) {
        co_return validation_failed(core::validation_errors{{"result must be one of: approve, fail"}});
    }
    const auto owner = owner_scope(ctx);
    core::shop_order paid_order;
    const auto done = co_await app.storage([&] {
        return app.shop().complete_payment(*id, owner, result == "approve", now_ms(), &paid_order);
    });
    if (!done) {
        if (done.error() == core::errc::not_found) {
            co_return error_response(done.error(), missing_text("Payment", *id));
        }
        if (done.error() == core::errc::transition_not_allowed) {
            co_return error_response(
                done.error(),
                "Payment " + std::to_string(*id) +
                    " is not waiting for 3-D Secure, or its order can no longer be paid"
            );
        }
        co_return error_response(done.error());
    }
    co_await publish_payment(app, *done, paid_order);
    co_return payment_answer(app, *done, http::status::ok);
}

}  // namespace storefront::server
