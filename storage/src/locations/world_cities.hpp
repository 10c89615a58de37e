#pragma once
// A fixed table of large cities (plus a few remote stations near the antimeridian and the poles) that the
// location generator scatters points around.

#include <span>
#include <string_view>

namespace storefront::storage::detail {

struct world_city {
    std::string_view name;     // UTF-8
    std::string_view country;  // UTF-8
    double latitude;           // degrees, approximate city centre
    double longitude;          // degrees
    unsigned weight;           // relative share of generated points (10 for an ordinary city)
};

// Every city in the table; the first entry is Bogotá.
[[nodiscard]] std::span<const world_city> world_cities() noexcept;

}  // namespace storefront::storage::detail
