// JSON of carts, orders and payments (issue 42). Money is written from integer cents with format_cents, so
// a total is never 0.30000000000000004; card numbers never get here (a payment has brand and last4 only).

#include "server/api/store/shop_json.hpp"

#include <boost/json/value.hpp>

#include "core/order_states.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server::shop_json {

namespace {

void money(json_writer& w, std::string_view name, core::cents amount) {
    w.key(name).raw(core::format_cents(amount));
}

// A timestamp, or null for 0 (a cart never stored).
void moment(json_writer& w, std::string_view name, core::timestamp_ms at) {
    w.key(name);
    if (at == 0) {
        w.raw("null");
    } else {
        w.value(iso8601_ms(at));
    }
}

void optional_text(json_writer& w, std::string_view name, const std::optional<std::string>& text) {
    w.key(name);
    if (text) {
        w.value(*text);
    } else {
        w.raw("null");
    }
}

void line(
    json_writer& w,
    std::int64_t product_id,
    const std::string& title,
    core::cents price,
    std::int32_t quantity,
    core::cents line_total
) {
    w.begin_object().key("productId").value(product_id).key("title").value(title);
    money(w, "price", price);
    w.key("quantity").value(static_cast<std::int64_t>(quantity));
    money(w, "lineTotal", line_total);
    w.end_object();
}

void write_order(json_writer& w, const core::shop_order& o) {
    w.begin_object().key("id").value(o.id).key("userId").value(o.user_id);
    w.key("status").value(core::to_string(o.status));
    w.key("items").begin_array();
    for (const auto& item : o.items) {
        line(w, item.product_id, item.title, item.unit_price, item.quantity, item.line_total);
    }
    w.end_array();
    money(w, "subtotal", o.subtotal);
    money(w, "discount", o.discount);
    money(w, "shipping", o.shipping);
    money(w, "total", o.total);
    optional_text(w, "coupon", o.coupon);
    w.key("currency").value(core::shop_currency);
    w.key("shippingAddress").begin_object();
    w.key("name").value(o.address.name).key("line1").value(o.address.line1);
    optional_text(w, "line2", o.address.line2);
    w.key("city").value(o.address.city).key("postalCode").value(o.address.postal_code);
    w.key("country").value(o.address.country).end_object();
    moment(w, "createdAt", o.created_at);
    moment(w, "updatedAt", o.updated_at);
    moment(w, "expiresAt", o.expires_at);
    w.end_object();
}

void write_payment(json_writer& w, const core::payment& p, std::string_view three_ds_url) {
    w.begin_object().key("id").value(p.id).key("orderId").value(p.order_id);
    money(w, "amount", p.amount);
    w.key("currency").value(core::shop_currency);
    w.key("status").value(core::to_string(p.status));
    w.key("card").begin_object().key("brand").value(p.brand).key("last4").value(p.last4).end_object();
    if (p.failure_code) {
        w.key("failureCode").value(*p.failure_code);
    }
    if (p.next_action && p.status == core::payment_status::requires_action) {
        w.key("nextAction")
            .begin_object()
            .key("type")
            .value(*p.next_action)
            .key("url")
            .value(three_ds_url)
            .end_object();
    }
    moment(w, "createdAt", p.created_at);
    moment(w, "updatedAt", p.updated_at);
    w.end_object();
}

}  // namespace

std::string cart_json(const core::cart& cart, const core::cart_totals& totals) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("id").value(cart.id).key("userId").value(cart.user_id);
    w.key("items").begin_array();
    for (const auto& l : totals.lines) {
        line(w, l.product_id, l.title, l.price, l.quantity, l.line_total);
    }
    w.end_array();
    w.key("totalQuantity").value(totals.total_quantity);
    money(w, "subtotal", totals.subtotal);
    money(w, "discount", totals.discount);
    money(w, "total", totals.total);
    optional_text(w, "coupon", cart.coupon);
    w.key("currency").value(core::shop_currency);
    moment(w, "createdAt", cart.created_at);
    moment(w, "updatedAt", cart.updated_at);
    w.end_object();
    return out;
}

std::string order_json(const core::shop_order& order) {
    std::string out;
    json_writer w(out);
    write_order(w, order);
    return out;
}

std::string orders_json(const std::vector<core::shop_order>& orders) {
    std::string out;
    json_writer w(out);
    w.begin_array();
    for (const auto& o : orders) {
        write_order(w, o);
    }
    w.end_array();
    return out;
}

std::string payment_json(const core::payment& payment, std::string_view three_ds_url) {
    std::string out;
    json_writer w(out);
    write_payment(w, payment, three_ds_url);
    return out;
}

std::string payments_json(const std::vector<core::payment>& payments, const std::string& three_ds_base) {
    std::string out;
    json_writer w(out);
    w.begin_array();
    for (const auto& p : payments) {
        write_payment(w, p, three_ds_base + std::to_string(p.id) + "/3ds");
    }
    w.end_array();
    return out;
}

or_response<boost::json::object> object_body(const request_context& ctx) {
    const std::string media_type = media_type_of(ctx.request[http::field::content_type]);
    if (media_type != "application/json") {
        return http_error(
            http::status::unsupported_media_type, "Unsupported Media Type: send application/json"
        );
    }
    auto parsed = parse_json_body(ctx.request.body());
    if (!parsed) {
        return http_error(http::status::bad_request, "Malformed JSON body");
    }
    if (!parsed->is_object()) {
        return http_error(http::status::bad_request, "The body must be a JSON object");
    }
    return std::move(parsed->get_object());
}

or_response<core::input_fields> nested_fields(const boost::json::object& body, std::string_view name) {
    const auto* member = body.if_contains(name);
    if (member == nullptr || !member->is_object()) {
        return http_error(http::status::bad_request, std::string(name) + " must be an object");
    }
    return input_fields_of(member->get_object());
}

or_response<core::card_details> read_card(const boost::json::object& body) {
    const auto* member = body.if_contains("card");
    if (member == nullptr || !member->is_object()) {
        return http_error(http::status::bad_request, "card must be an object");
    }
    const auto& card = member->get_object();
    core::card_details out;
    const auto text = [&](std::string_view name, std::string& into) -> std::optional<response> {
        const auto* v = card.if_contains(name);
        if (v == nullptr || !v->is_string()) {
            return http_error(http::status::bad_request, "card." + std::string(name) + " must be a string");
        }
        into.assign(v->get_string().data(), v->get_string().size());
        return std::nullopt;
    };
    const auto integer = [&](std::string_view name, std::int32_t& into) -> std::optional<response> {
        const auto* v = card.if_contains(name);
        const bool whole = v != nullptr && (v->is_int64() || (v->is_uint64() && v->get_uint64() < 100000));
        if (!whole || v->to_number<std::int64_t>() < 0 || v->to_number<std::int64_t>() > 9999) {
            return http_error(
                http::status::bad_request, "card." + std::string(name) + " must be an integer from 0 to 9999"
            );
        }
        into = static_cast<std::int32_t>(v->to_number<std::int64_t>());
        return std::nullopt;
    };
    if (auto bad = text("number", out.number)) {
        return std::move(*bad);
    }
    if (auto bad = integer("expMonth", out.exp_month)) {
        return std::move(*bad);
    }
    if (auto bad = integer("expYear", out.exp_year)) {
        return std::move(*bad);
    }
    if (auto bad = text("cvc", out.cvc)) {
        return std::move(*bad);
    }
    return out;
}

}  // namespace storefront::server::shop_json
