// Cart rules: the quantity and line limits, and the totals in cents (lines, coupon, shipping).

#include "core/cart_rules.hpp"

#include <algorithm>
#include <charconv>

#include "core/enum_names.hpp"
#include "core/shipping_rule.hpp"

namespace storefront::core {

namespace {

// Each problem's field and the message that explains it, side by side.
constexpr problem_text<cart_problem> cart_problem_texts[] = {
    {cart_problem::quantity_out_of_range,
     "quantity",
     "quantity must be an integer from 1 to 99 (also with what the cart already holds)"},
    {cart_problem::too_many_lines, "items", "items: a cart holds at most 50 different products"},
    {cart_problem::line_not_found, "items", "the cart has no item of that product"},
};

bool in_range(std::int64_t quantity) noexcept {
    return quantity >= min_line_quantity && quantity <= max_line_quantity;
}

auto find_line(std::vector<cart_line>& lines, std::int64_t product_id) {
    return std::find_if(lines.begin(), lines.end(), [&](const cart_line& l) {
        return l.product_id == product_id;
    });
}

}  // namespace

std::string cart_problem_message(cart_problem problem) {
    return std::string(
        text_of(cart_problem_texts, problem, &problem_text<cart_problem>::message, "invalid cart change")
    );
}

std::string_view cart_problem_field(cart_problem problem) noexcept {
    return text_of(cart_problem_texts, problem, &problem_text<cart_problem>::field, "items");
}

std::optional<std::int32_t> read_quantity(const input_value& value, bool allow_zero) {
    if (value.type != input_value::kind::number) {
        return std::nullopt;
    }
    // An integer-valued JSON number, read exactly as cents (x100) so "2.0" and "1e1" count and "1.5" does
    // not.
    const auto hundredths = parse_cents(value.text);
    if (!hundredths || *hundredths % 100 != 0) {
        return std::nullopt;
    }
    const std::int64_t quantity = *hundredths / 100;
    if (quantity == 0 ? !allow_zero : !in_range(quantity)) {
        return std::nullopt;
    }
    return static_cast<std::int32_t>(quantity);
}

std::optional<cart_problem> add_to_cart(
    std::vector<cart_line>& lines, std::int64_t product_id, std::int32_t quantity
) {
    if (!in_range(quantity)) {
        return cart_problem::quantity_out_of_range;
    }
    if (auto line = find_line(lines, product_id); line != lines.end()) {
        if (!in_range(std::int64_t{line->quantity} + quantity)) {
            return cart_problem::quantity_out_of_range;
        }
        line->quantity += quantity;
        return std::nullopt;
    }
    if (lines.size() >= max_cart_lines) {
        return cart_problem::too_many_lines;
    }
    lines.push_back({product_id, quantity});
    return std::nullopt;
}

std::optional<cart_problem> set_cart_quantity(
    std::vector<cart_line>& lines, std::int64_t product_id, std::int32_t quantity
) {
    auto line = find_line(lines, product_id);
    if (line == lines.end()) {
        return cart_problem::line_not_found;
    }
    if (quantity == 0) {
        lines.erase(line);
        return std::nullopt;
    }
    if (!in_range(quantity)) {
        return cart_problem::quantity_out_of_range;
    }
    line->quantity = quantity;
    return std::nullopt;
}

std::optional<cart_problem> remove_from_cart(std::vector<cart_line>& lines, std::int64_t product_id) {
    auto line = find_line(lines, product_id);
    if (line == lines.end()) {
        return cart_problem::line_not_found;
    }
    lines.erase(line);
    return std::nullopt;
}

cart_totals total_lines(std::vector<priced_line> lines, const std::optional<std::string>& coupon) {
    cart_totals out;
    for (auto& line : lines) {
        const cents price = std::clamp<cents>(line.price, 0, max_price_cents);
        line.price = price;
        line.line_total = price * line.quantity;
        out.total_quantity += line.quantity;
        out.subtotal += line.line_total;
    }
    out.lines = std::move(lines);
    if (coupon) {
        const auto applied = apply_coupon(*coupon, out.subtotal);
        out.discount = applied.discount;
        out.coupon_issue = applied.problem;
    }
    out.total = out.subtotal - out.discount;
    out.shipping = shipping_for(out.total, !out.lines.empty());
    return out;
}

shop_order order_from_cart(
    const cart_totals& totals, const std::optional<std::string>& coupon, const checkout_terms& terms
) {
    shop_order o;
    o.user_id = terms.user_id;
    for (const auto& l : totals.lines) {
        o.items.push_back({l.product_id, l.title, l.price, l.quantity, l.line_total});
    }
    o.subtotal = totals.subtotal;
    o.discount = totals.discount;
    o.shipping = totals.shipping;
    o.total = totals.total + totals.shipping;
    o.coupon = totals.discount > 0 ? coupon : std::nullopt;
    o.address = terms.address;
    o.created_at = o.updated_at = terms.now;
    o.expires_at = terms.now + terms.ttl_ms;
    return o;
}

}  // namespace storefront::core
