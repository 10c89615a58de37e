#pragma once
// Money in integer cents (US dollars): exact parsing of a JSON number's text into cents, the catalogue's
// double prices turned into cents, and cents written back as a JSON number with at most two decimals.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace storefront::core {

using cents = std::int64_t;

// The largest amount this code reads or computes: 10,000,000,000,000.00, above the dearest possible cart
// (50 lines of 99 at the catalogue's max_price of 1,000,000,000.00 is 4.95e14 cents) and below 2^53, so
// every amount is also exact as a double.
inline constexpr cents max_amount_cents = 1'000'000'000'000'000;
// The dearest unit price a cart takes (the catalogue's max_price, 1,000,000,000.00); dearer is clamped.
inline constexpr cents max_price_cents = 100'000'000'000;

// The text of a JSON number ("12", "12.5", "0.30", "1.2e1", "-0") as exact cents, without ever going
// through a double; nullopt when it is not a JSON number, negative, has a non-zero digit below the cent
// ("1.005"), or exceeds max_amount_cents.
[[nodiscard]] std::optional<cents> parse_cents(std::string_view text) noexcept;

// A catalogue price (a double kept in its shortest round-trip form, e.g. 0.1 + 0.2 is 0.30000000000000004)
// in cents, rounded half up on its shortest decimal text, so 19.99 is 1999 and 0.30000000000000004 is 30.
// Negative and non-finite prices are 0; prices above max_amount_cents are clamped to it.
[[nodiscard]] cents price_to_cents(double price) noexcept;

// `amount` as a JSON number with at most two decimals and no trailing zeros: 1999 -> "19.99", 1050 ->
// "10.5", 1000 -> "10", -5 -> "-0.05". parse_cents(format_cents(x)) == x for every x in [0, max].
[[nodiscard]] std::string format_cents(cents amount);

// The double nearest amount / 100, for a JSON writer that takes doubles: its shortest text parses back to
// exactly `amount` (it may use an exponent, 1e+09); write format_cents' text where the bytes matter.
[[nodiscard]] double cents_to_double(cents amount) noexcept;

}  // namespace storefront::core
