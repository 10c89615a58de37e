#pragma once
// JSON text for core value types, in the field order clients of the public service see.

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/model.hpp"

namespace storefront::server {

// The JSON fields a `select` asks for (core::list_options::select: `id` first, in serialisation order);
// empty: every field.
using field_list = std::vector<std::string>;

// Image URLs stored as paths ("/api/v1/images/...": storefront's own pictures) are written under
// `public_url` ("http://127.0.0.1:8080"), so the stored data does not depend on where it is served from.
// A product's `category`, when selected, is the whole category.
[[nodiscard]] std::string to_json(
    const core::category& c, std::string_view public_url, const field_list& fields = {}
);
[[nodiscard]] std::string to_json(
    const core::product& p, std::string_view public_url, const field_list& fields = {}
);
// Never any password.
[[nodiscard]] std::string to_json(
    const core::user& u, std::string_view public_url, const field_list& fields = {}
);
[[nodiscard]] std::string to_json(const core::location& l);

// A location's object without its closing brace, so fields can follow (`,"distance":1.5}`): the
// pre-serialised form /locations answers from.
void append_location_fields(std::string& out, const core::location& l);

// A JSON array of locations, written into one buffer.
[[nodiscard]] std::string to_json_array(const std::vector<core::location>& items);

// A JSON array of the given items (values, or pointers to them), with the selected fields.
template <class T>
[[nodiscard]] std::string to_json_array(
    const std::vector<T>& items, std::string_view public_url, const field_list& fields = {}
) {
    std::string out = "[";
    for (const auto& item : items) {
        if (out.size() > 1) {
            out += ',';
        }
        if constexpr (std::is_pointer_v<T>) {
            out += to_json(*item, public_url, fields);
        } else {
            out += to_json(item, public_url, fields);
        }
    }
    out += ']';
    return out;
}

}  // namespace storefront::server
