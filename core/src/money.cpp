// Money: a small decimal reader that keeps digits as digits (never a double) and the cent writer.
// price_to_cents goes through std::to_chars' shortest text, so it rounds what the catalogue shows.

#include "core/money.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "core/text.hpp"

namespace storefront::core {

namespace {

enum class rounding { exact, half_up };

// A JSON number's text as cents: sign, integer part (no leading zeros but "0"), optional fraction,
// optional exponent. `mode` says whether digits below the cent are an error or are rounded half up.
std::optional<cents> decimal_to_cents(std::string_view text, rounding mode) noexcept {
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative) {
        ++i;
    }
    // Significant digits (leading zeros dropped) and where the decimal point sits relative to them.
    std::array<char, 40> digits{};
    std::size_t count = 0;
    bool nonzero_lost = false;  // a non-zero digit beyond what `digits` keeps (only far below the cent)
    std::int64_t point = 0;     // the value is 0.d1d2d3... * 10^point
    const std::size_t int_start = i;
    while (i < text.size() && is_ascii_digit(text[i])) {
        ++i;
    }
    const std::size_t int_end = i;
    if (int_end == int_start || (text[int_start] == '0' && int_end - int_start > 1)) {
        return std::nullopt;
    }
    const auto take = [&](char c, bool integer_part) {
        if (count == 0 && c == '0') {
            if (!integer_part) {
                --point;
            }
            return;
        }
        if (count < digits.size()) {
            digits[count++] = c;
        } else if (c != '0') {
            nonzero_lost = true;
        }
        if (integer_part) {
            ++point;
        }
    };
    for (std::size_t k = int_start; k < int_end; ++k) {
        take(text[k], true);
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        const std::size_t frac_start = i;
        while (i < text.size() && is_ascii_digit(text[i])) {
            take(text[i], false);
            ++i;
        }
        if (i == frac_start) {
            return std::nullopt;
        }
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool exp_negative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
            exp_negative = text[i] == '-';
            ++i;
        }
        const std::size_t exp_start = i;
        std::int64_t exponent = 0;
        while (i < text.size() && is_ascii_digit(text[i])) {
            if (exponent < 100'000) {
                exponent = exponent * 10 + (text[i] - '0');
            }
            ++i;
        }
        if (i == exp_start) {
            return std::nullopt;
        }
        point += exp_negative ? -exponent : exponent;
    }
    if (i != text.size()) {
        return std::nullopt;
    }
    if (count == 0) {
        return nonzero_lost ? std::nullopt : std::optional<cents>(0);  // "0", "-0", "0.00e5"
    }
    if (negative) {
        return std::nullopt;
    }
    // Cents are the digits before position point + 2; the ones after it are below the cent.
    const std::int64_t whole = point + 2;
    if (whole > 16) {
        return std::nullopt;  // at least 10^16 cents: above max_amount_cents
    }
    cents value = 0;
    for (std::int64_t k = 0; k < whole; ++k) {
        value = value * 10 +
                (k < static_cast<std::int64_t>(count) ? digits[static_cast<std::size_t>(k)] - '0' : 0);
    }
    const std::size_t first_below = whole < 0 ? 0 : static_cast<std::size_t>(whole);
    bool below_nonzero = nonzero_lost;
    for (std::size_t k = first_below; k < count; ++k) {
        below_nonzero = below_nonzero || digits[k] != '0';
    }
    if (below_nonzero) {
        if (mode == rounding::exact) {
            return std::nullopt;
        }
        // Half up: the first digit below the cent decides (a digit beyond `digits` is far below it).
        const char first = whole >= 0 && first_below < count ? digits[first_below] : '0';
        if (whole >= 0 && first >= '5') {
            ++value;
        }
    }
    if (value > max_amount_cents) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::optional<cents> parse_cents(std::string_view text) noexcept {
    return decimal_to_cents(text, rounding::exact);
}

cents price_to_cents(double price) noexcept {
    if (!std::isfinite(price) || price <= 0) {
        return 0;
    }
    if (price >= static_cast<double>(max_amount_cents) / 100) {
        return max_amount_cents;
    }
    std::array<char, 64> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), price);
    if (ec != std::errc{}) {
        return 0;
    }
    // to_chars writes "1e-07" style exponents, which the reader takes; the value is in range, so it parses.
    return decimal_to_cents(
               std::string_view(buffer.data(), static_cast<std::size_t>(end - buffer.data())),
               rounding::half_up
    )
        .value_or(0);
}

std::string format_cents(cents amount) {
    std::string out;
    // Unsigned arithmetic: -INT64_MIN does not fit int64.
    std::uint64_t magnitude =
        amount < 0 ? 0 - static_cast<std::uint64_t>(amount) : static_cast<std::uint64_t>(amount);
    if (amount < 0) {
        out += '-';
    }
    out += std::to_string(magnitude / 100);
    const auto fraction = static_cast<unsigned>(magnitude % 100);
    if (fraction != 0) {
        out += '.';
        out += static_cast<char>('0' + fraction / 10);
        if (fraction % 10 != 0) {
            out += static_cast<char>('0' + fraction % 10);
        }
    }
    return out;
}

double cents_to_double(cents amount) noexcept {
    // The division is correctly rounded, so the result is the double nearest amount / 100, whose shortest
    // text has at most two decimals (amounts below 2^53 cents).
    return static_cast<double>(amount) / 100.0;
}

}  // namespace storefront::core
