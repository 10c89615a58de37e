#pragma once
// A strict reader and writer for flat JSON objects (string, integer and boolean members only), enough for
// JWT headers and claims while keeping core free of a JSON library. Anything else is refused.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace storefront::core {

using flat_value = std::variant<std::string, std::int64_t, bool>;
using flat_object = std::map<std::string, flat_value, std::less<>>;

// nullopt for: nesting, arrays, null, fractions/exponents, integers outside int64, duplicate keys,
// invalid escapes or UTF-8 control characters, trailing bytes, more than 32 members.
[[nodiscard]] std::optional<flat_object> parse_flat_json(std::string_view text);

// Members in the order given (the writer keeps the caller's order, unlike flat_object).
[[nodiscard]] std::string write_json_string(std::string_view text);  // quoted and escaped

// The same, appended to `out` (no temporary; bytes needing no escape are copied in runs).
void append_json_string(std::string& out, std::string_view text);

}  // namespace storefront::core
