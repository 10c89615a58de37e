#pragma once
// Deterministic generation of the default location set: points scattered around the world city table.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

// How far from a city centre a generated point may lie (great-circle km).
inline constexpr double generated_spread_km = 30.0;

// `count` locations with ids 1..count; the same seed gives the same set on every platform that has
// correctly rounded sin/cos/asin/atan2 (the random stream itself is fixed by the standard).
// Location 1 is "Bogotá" at the public service's default origin (4.6482784, -74.2726198); every other
// point lies within generated_spread_km of a city, cities weighted by world_city::weight, and is named
// like a place there (see place_names.hpp).
[[nodiscard]] std::vector<core::location> generate_locations(std::size_t count, std::uint64_t seed);

}  // namespace storefront::storage::detail
