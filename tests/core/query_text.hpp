#pragma once
// Query parameters written back as a query string ("?limit=5&offset=0"), to name a table row in a test's
// failure message.

#include <string>

#include "core/query.hpp"

namespace storefront::test {

[[nodiscard]] inline std::string describe(const core::query_params& params) {
    std::string out;
    for (const auto& p : params) {
        out += (out.empty() ? "?" : "&") + p.name + "=" + p.value;
    }
    return out.empty() ? "(none)" : out;
}

}  // namespace storefront::test
