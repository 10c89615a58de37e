// JSON text writer used for every response body: keeps numbers in plain decimal form and reuses core's
// RFC 8259 string escaping.

#include "server/json_writer.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/flat_json.hpp"

namespace storefront::server {

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
    out_ += core::write_json_string(name);
    out_ += ':';
    need_comma_ = false;
    return *this;
}

json_writer& json_writer::value(std::string_view text) {
    separate();
    out_ += core::write_json_string(text);
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
    if (!std::isfinite(number)) {
        out_ += "null";  // JSON has no NaN/Infinity; our data never holds them
    } else {
        std::array<char, 32> buf{};
        auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), number);
        out_.append(buf.data(), end);
    }
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
