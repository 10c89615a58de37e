// Store handlers of /api/v3: the order inventory (api_key), placing, reading and deleting orders.
// An order must name an existing pet.

#include "core/pet_rules.hpp"
#include "pet_answers.hpp"
#include "pet_params.hpp"
#include "server/api/petstore/handlers.hpp"
#include "server/api/petstore/pet_json.hpp"
#include "server/codec/json_writer.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

// GET /store/inventory (api_key) : order quantities summed by order status
handler_result handle_get_store_inventory(request_context&, pet_services& app) {
    std::string out;
    json_writer w(out);
    w.begin_object();
    const auto inventory = co_await app.storage([&] { return app.orders().inventory(); });
    for (const auto& [status, quantity] : inventory) {
        w.key(core::to_string(status)).value(quantity);
    }
    w.end_object();
    co_return json_response(http::status::ok, std::move(out));
}

// POST /store/order {Order} : places an order for an existing pet and returns it
handler_result handle_post_store_order(request_context& ctx, pet_services& app) {
    auto order = pet_params::read_body(ctx, read_order);
    if (!order) {
        co_return std::move(order).error();
    }
    if (!co_await app.storage([&] { return app.pets().find(order->pet_id); })) {
        co_return pet_error(
            http::status::bad_request,
            "petId " + std::to_string(order->pet_id) + " does not refer to an existing pet"
        );
    }
    const auto stored = co_await app.storage([&] { return app.orders().add(std::move(*order)); });
    co_return json_response(http::status::ok, to_json(stored));
}

// GET /store/order/{orderId} : one order
handler_result handle_get_store_order(request_context& ctx, pet_services& app) {
    const auto find = [](pet_services& s, std::int64_t id) { return s.orders().find(id); };
    return pet_params::answer_for_key(
        pet_params::path_id(ctx, "orderId"), app, "Order", find, pet_params::json_ok
    );
}

// DELETE /store/order/{orderId} : removes an order
handler_result handle_delete_store_order(request_context& ctx, pet_services& app) {
    const auto remove = [](pet_services& s, std::int64_t id) { return s.orders().remove(id); };
    const auto deleted = [] { return pet_params::json_string_response("Order deleted"); };
    return pet_params::answer_for_key(pet_params::path_id(ctx, "orderId"), app, "Order", remove, deleted);
}

}  // namespace storefront::server
