#pragma once
// JSON text for core value types, in the field order clients of the public service see.

#include <string>
#include <vector>

#include "core/model.hpp"

namespace storefront::server {

[[nodiscard]] std::string to_json(const core::category& c);
[[nodiscard]] std::string to_json(const core::product& p);
[[nodiscard]] std::string to_json(const core::user& u);  // never any password material
[[nodiscard]] std::string to_json(const core::location& l);

// A JSON array of locations, written into one buffer (the /locations hot path).
[[nodiscard]] std::string to_json_array(const std::vector<core::location>& items);

// A JSON array of the given items.
template <class T>
[[nodiscard]] std::string to_json_array(const std::vector<T>& items) {
    std::string out = "[";
    for (const auto& item : items) {
        if (out.size() > 1) {
            out += ',';
        }
        out += to_json(item);
    }
    out += ']';
    return out;
}

}  // namespace storefront::server
