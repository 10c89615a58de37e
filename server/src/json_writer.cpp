// JSON text writer used for every response body: keeps numbers in plain decimal form and escapes strings
// per RFC 8259 straight into the output (the same bytes as core::write_json_string, without a temporary).

#include "server/json_writer.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace storefront::server {

namespace {

// Whether any of the 8 bytes in `w` is a control character, '"' or '\\' (the bytes JSON must escape),
// tested on all 8 at once with the classic has-zero-byte / has-less-than bit tricks.
constexpr bool any_to_escape(std::uint64_t w) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    const std::uint64_t quote = w ^ (ones * '"');
    const std::uint64_t backslash = w ^ (ones * '\\');
    const std::uint64_t found = ((w - ones * 0x20) | (quote - ones) | (backslash - ones)) & ~w & highs;
    // (x - ones) & ~x & highs is non-zero iff some byte of x is zero; ~w also rules out bytes >= 0x80,
    // which never need escaping (UTF-8 passes through) and would otherwise look like matches.
    return found != 0;
}

}  // namespace

// Appends `text` quoted and escaped; runs of bytes that need no escape are appended in one go, so the
// common case is one append per string and no allocation beyond the output's growth.
void append_json_string(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t run = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i + 8 <= text.size()) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, sizeof word);
            if (!any_to_escape(word)) {
                i += 8;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        out.append(text.data() + run, i - run);
        ++i;
        run = i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xF];
        }
    }
    out.append(text.data() + run, text.size() - run);
    out += '"';
}

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

void json_writer::separate() {
    if (need_comma_) {
        out_ += ',';
    }
}

json_writer& json_writer::begin_object() {
    separate();
    out_ += '{';
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::end_object() {
    out_ += '}';
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::begin_array() {
    separate();
    out_ += '[';
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::end_array() {
    out_ += ']';
    need_comma_ = true;
    return *this;
}

json_writer& json_writer::key(std::string_view name) {
    separate();
    append_json_string(out_, name);
    out_ += ':';
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::value(std::string_view text) {
    separate();
    append_json_string(out_, text);
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
    std::array<char, 32> buf{};
    const int n = std::snprintf(
        buf.data(),
        buf.size(),
        "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
        static_cast<int>(ymd.year()),
        static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()),
        static_cast<int>(hms.hours().count()),
        static_cast<int>(hms.minutes().count()),
        static_cast<int>(hms.seconds().count()),
        static_cast<int>(hms.subseconds().count())
    );
    return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace storefront::server
