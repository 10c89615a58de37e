// JSON text writer used for every response body: keeps numbers in plain decimal form and escapes strings
// with core::append_json_string straight into the output.

#include "server/codec/json_writer.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/flat_json.hpp"

namespace storefront::server {

namespace {

// std::to_chars(double) spends ~600 instructions per call here (libstdc++ 12); coordinates and prices
// mostly have at most 7 decimals, which this formats with integer arithmetic. It writes exactly what
// to_chars would (shortest round-trip digits, fixed notation unless scientific is shorter) or nothing.
bool append_short_decimal(std::string& out, double number) {
    constexpr double scale = 1e7;
    if (!(std::fabs(number) < 1e8)) {  // below 1e8 an ulp is < 1e-7: at most one 7-decimal text fits
        return false;
    }
    const double scaled = std::nearbyint(number * scale);
    // Both operands are exact doubles, so the quotient is the correctly rounded value of scaled / 10^7:
    // the double a parser gives for the 7-decimal text. If that is `number`, the text round-trips, and
    // after trimming trailing zeros it is the shortest such text (a shorter one would scale to `scaled`).
    if (scaled / scale != number || (scaled == 0 && std::signbit(number))) {
        return false;
    }
    auto units = static_cast<std::int64_t>(std::fabs(scaled));
    int decimals = 7;
    while (decimals > 0 && units % 10 == 0) {
        units /= 10;
        --decimals;
    }
    std::array<char, 24> digits{};
    const auto [digits_end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), units);
    const int count = static_cast<int>(digits_end - digits.data());
    // Fixed length vs scientific length ("d.ddde+XX"), as to_chars chooses (fixed on a tie).
    const int fixed_length =
        decimals == 0 ? count : std::max(count, decimals) + 1 + (count <= decimals ? 1 : 0);
    int significant = count;
    while (significant > 1 && digits[static_cast<std::size_t>(significant - 1)] == '0') {
        --significant;  // only possible when decimals == 0: an integer like 1000
    }
    const int exponent = count - 1 - decimals;
    const int scientific_length =
        significant + (significant > 1 ? 1 : 0) + 2 + (std::abs(exponent) >= 100 ? 3 : 2);
    if (fixed_length > scientific_length) {
        return false;
    }
    if (number < 0) {
        out += '-';
    }
    if (decimals == 0) {
        out.append(digits.data(), digits_end);
    } else if (count > decimals) {
        out.append(digits.data(), static_cast<std::size_t>(count - decimals));
        out += '.';
        out.append(digits.data() + (count - decimals), static_cast<std::size_t>(decimals));
    } else {
        out += "0.";
        out.append(static_cast<std::size_t>(decimals - count), '0');
        out.append(digits.data(), digits_end);
    }
    return true;
}

}  // namespace

void append_json_number(std::string& out, double number) {
    if (!std::isfinite(number)) {
        out += "null";  // JSON has no NaN/Infinity; our data never holds them
        return;
    }
    if (append_short_decimal(out, number)) {
        return;
    }
    std::array<char, 32> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), number);
    out.append(buf.data(), end);
}

void append_json_thousandths(std::string& out, double number) {
    const double thousandths = std::round(number * 1000);
    // Up to 10^12 thousandths the text has at most 13 digits, so it is the shortest that round-trips, and
    // fixed notation is never longer than scientific (10000 and "1e+04" tie, and ties go to fixed).
    if (!(thousandths >= 0 && thousandths < 1e12) || std::signbit(thousandths)) {
        append_json_number(out, thousandths / 1000);
        return;
    }
    const auto count = static_cast<std::uint64_t>(thousandths);
    std::array<char, 24> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), count / 1000);
    out.append(digits.data(), end);
    auto fraction = static_cast<unsigned>(count % 1000);
    if (fraction == 0) {
        return;
    }
    std::array<char, 4> decimals{
        '.',
        static_cast<char>('0' + fraction / 100),
        static_cast<char>('0' + fraction / 10 % 10),
        static_cast<char>('0' + fraction % 10)};
    std::size_t length = decimals.size();
    while (decimals[length - 1] == '0') {
        --length;  // trailing zeros: 12.5, not 12.500
    }
    out.append(decimals.data(), length);
}

void json_writer::separate() {
    if (need_comma_) {
        out_ += ',';
    }
}

json_writer& json_writer::open(char bracket) {
    separate();
    out_ += bracket;
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::close(char bracket) {
    out_ += bracket;
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::begin_object() {
    return open('{');
}

json_writer& json_writer::end_object() {
    return close('}');
}

json_writer& json_writer::begin_array() {
    return open('[');
}

json_writer& json_writer::end_array() {
    return close(']');
}

json_writer& json_writer::key(std::string_view name) {
    separate();
    core::append_json_string(out_, name);
    out_ += ':';
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::value(std::string_view text) {
    separate();
    core::append_json_string(out_, text);
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::value(std::int64_t number) {
    separate();
    std::array<char, 24> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), number);
    out_.append(buf.data(), end);
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::value(double number) {
    separate();
    append_json_number(out_, number);
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::value(bool flag) {
    separate();
    out_ += flag ? "true" : "false";
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::raw(std::string_view json) {
    separate();
    out_ += json;
    need_comma_ = true;
    return *this;
}

std::string iso8601_ms(std::int64_t epoch_ms) {
    using namespace std::chrono;
    const sys_time<milliseconds> t{milliseconds(epoch_ms)};
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss hms{t - day};
    const int year = static_cast<int>(ymd.year());
    if (year < 0 || year > 9999) {  // outside what four digits hold: the general (slower) formatting
        std::array<char, 48> buf{};
        const int n = std::snprintf(
            buf.data(),
            buf.size(),
            "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
            year,
            static_cast<unsigned>(ymd.month()),
            static_cast<unsigned>(ymd.day()),
            static_cast<int>(hms.hours().count()),
            static_cast<int>(hms.minutes().count()),
            static_cast<int>(hms.seconds().count()),
            static_cast<int>(hms.subseconds().count())
        );
        return std::string(buf.data(), static_cast<std::size_t>(n));
    }
    // "YYYY-MM-DDTHH:MM:SS.mmmZ" digit by digit: serialising a list formats two of these per item.
    std::string out = "0000-00-00T00:00:00.000Z";
    const auto put = [&out](std::size_t at, unsigned value, int digits) {
        for (int d = digits - 1; d >= 0; --d) {
            out[at + static_cast<std::size_t>(d)] = static_cast<char>('0' + value % 10);
            value /= 10;
        }
    };
    put(0, static_cast<unsigned>(year), 4);
    put(5, static_cast<unsigned>(ymd.month()), 2);
    put(8, static_cast<unsigned>(ymd.day()), 2);
    put(11, static_cast<unsigned>(hms.hours().count()), 2);
    put(14, static_cast<unsigned>(hms.minutes().count()), 2);
    put(17, static_cast<unsigned>(hms.seconds().count()), 2);
    put(20, static_cast<unsigned>(hms.subseconds().count()), 3);
    return out;
}

}  // namespace storefront::server
