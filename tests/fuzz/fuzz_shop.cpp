// libFuzzer harness for the shop's money and cart rules: bytes as a money text (parse, format, round
// trip), then as a script of cart operations whose invariants are checked after every step (a broken one
// aborts, which libFuzzer reports as a crash).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/cart_rules.hpp"
#include "core/coupons.hpp"
#include "core/money.hpp"

namespace {

void require(bool holds) {
    if (!holds) {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace storefront::core;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto c = parse_cents(text)) {
        require(*c >= 0 && *c <= max_amount_cents);
        require(parse_cents(format_cents(*c)) == c);
        require(price_to_cents(cents_to_double(*c)) == *c);
    }
    input_value number{input_value::kind::number, std::string(text), {}};
    if (const auto q = read_quantity(number, true)) {
        require(*q >= 0 && *q <= max_line_quantity);
    }

    // Each 4 bytes: operation, product (0-63), quantity (signed), price seed.
    std::vector<cart_line> lines;
    for (std::size_t i = 0; i + 4 <= size; i += 4) {
        const std::int64_t product = data[i + 1] % 64;
        const auto quantity = static_cast<std::int32_t>(static_cast<std::int8_t>(data[i + 2]));
        const auto before = lines;
        std::optional<cart_problem> problem;
        switch (data[i] % 3) {
            case 0:
                problem = add_to_cart(lines, product, quantity);
                break;
            case 1:
                problem = set_cart_quantity(lines, product, quantity);
                break;
            default:
                problem = remove_from_cart(lines, product);
        }
        require(!problem || lines == before);
        require(lines.size() <= max_cart_lines);
        for (const auto& l : lines) {
            require(l.quantity >= min_line_quantity && l.quantity <= max_line_quantity);
        }
    }
    const std::optional<std::string> coupon =
        size > 0 && data[0] % 2 ? std::optional<std::string>("SAVE10") : std::optional<std::string>("TAKE5");
    const auto t = price_cart(lines, coupon, [&](std::int64_t id) -> std::optional<catalogue_entry> {
        const cents price =
            size > 0 ? static_cast<cents>(data[static_cast<std::size_t>(id) % size]) * 997 : 0;
        return catalogue_entry{"p", id == 63 ? max_amount_cents : price};
    });
    cents sum = 0;
    for (const auto& l : t.lines) {
        sum += l.line_total;
    }
    require(sum == t.subtotal);
    require(t.discount >= 0 && t.discount <= t.subtotal);
    require(t.total == t.subtotal - t.discount && t.total >= 0);
    require(parse_cents(format_cents(t.total)) == t.total);
    return 0;
}
