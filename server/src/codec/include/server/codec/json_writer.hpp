#pragma once
// Appends JSON text to a string: our own number formatting (shortest round-trip via std::to_chars, since
// Boost.JSON 1.81 prints 4.3 as 4.3E0) and RFC 8259 string escaping from core.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/flat_json.hpp"

namespace storefront::server {

class json_writer {
  public:
    explicit json_writer(std::string& out) : out_(out) {}

    json_writer& begin_object();
    json_writer& end_object();
    json_writer& begin_array();
    json_writer& end_array();
    json_writer& key(std::string_view name);
    json_writer& value(std::string_view text);
    json_writer& value(const char* text) { return value(std::string_view(text)); }
    json_writer& value(std::int64_t number);
    json_writer& value(double number);  // integral values print without a fraction: 44 not 44.0
    json_writer& value(bool flag);
    json_writer& raw(std::string_view json);  // an already-serialised JSON value

  private:
    void separate();
    json_writer& open(char bracket);   // an object or array begins: its first member needs no comma
    json_writer& close(char bracket);  // it ends, and is a value the next member is separated from
    std::string& out_;
    bool need_comma_ = false;
};

// The bytes json_writer writes for a string (quoted, RFC 8259 escaped: core's) and a double, for hot
// paths that append fixed JSON text around them directly.
using core::append_json_string;
void append_json_number(std::string& out, double number);
// What append_json_number writes for std::round(number * 1000) / 1000 (kilometres to the metre), from the
// integer count of thousandths: a few divisions instead of a shortest round-trip search.
void append_json_thousandths(std::string& out, double number);

// "2026-01-02T03:04:05.000Z" for milliseconds since the epoch.
[[nodiscard]] std::string iso8601_ms(std::int64_t epoch_ms);

}  // namespace storefront::server
