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
// Never the password: with a non-empty `password_mask` (--compat public) and every field wanted, the
// mask as `"password"` after `email`, where the public service writes its clear-text one.
[[nodiscard]] std::string to_json(
    const core::user& u,
    std::string_view public_url,
    const field_list& fields = {},
    std::string_view password_mask = {}
);
[[nodiscard]] std::string to_json(const core::location& l);

// A location's object without its closing brace, so fields can follow (`,"distance":1.5}`): the
// pre-serialised form /locations answers from.
void append_location_fields(std::string& out, const core::location& l);

// A JSON array of locations, written into one buffer.
[[nodiscard]] std::string to_json_array(const std::vector<core::location>& items);

// A JSON array of users, each as to_json(user, public_url, fields, password_mask) writes it.
[[nodiscard]] std::string to_json_array(
    const std::vector<const core::user*>& items,
    std::string_view public_url,
    const field_list& fields,
    std::string_view password_mask
);

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
