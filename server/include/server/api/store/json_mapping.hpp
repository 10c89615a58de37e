#pragma once
// JSON text for core value types, in the field order clients of the public service see.

#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"

namespace storefront::server {

// Image URLs stored as paths ("/api/v1/images/...": storefront's own pictures) are written under
// `public_url` ("http://127.0.0.1:8080"), so the stored data does not depend on where it is served from.
[[nodiscard]] std::string to_json(const core::category& c, std::string_view public_url);
[[nodiscard]] std::string to_json(const core::product& p, std::string_view public_url);
[[nodiscard]] std::string to_json(const core::user& u, std::string_view public_url);  // never any password
[[nodiscard]] std::string to_json(const core::location& l);

// A location's object without its closing brace, so fields can follow (`,"distance":1.5}`): the
// pre-serialised form /locations answers from.
void append_location_fields(std::string& out, const core::location& l);

// A JSON array of locations, written into one buffer.
[[nodiscard]] std::string to_json_array(const std::vector<core::location>& items);

// A JSON array of the given items.
template <class T>
[[nodiscard]] std::string to_json_array(const std::vector<T>& items, std::string_view public_url) {
    std::string out = "[";
    for (const auto& item : items) {
        if (out.size() > 1) {
            out += ',';
        }
        out += to_json(item, public_url);
    }
    out += ']';
    return out;
}

}  // namespace storefront::server
