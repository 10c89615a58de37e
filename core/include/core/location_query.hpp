#pragma once
// The /locations query: size 1..50 (default 5), optional origin "lat,lng", optional radius km >= 0,
// optional withDistance=true|false (a distance field on each result; needs an origin).

#include <cstddef>
#include <optional>

#include "core/geo.hpp"
#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

struct location_query {
    std::size_t size = 5;
    std::optional<geo_point> origin;
    std::optional<double> radius_km;  // only meaningful with an origin
    bool with_distance = false;       // only with an origin
};

inline constexpr std::size_t max_location_size = 50;

// Every problem is reported: non-numbers, out-of-range latitude/longitude, negative radius, duplicates.
// A radius or withDistance without an origin is refused ("radius requires origin", "withDistance requires
// origin"); withDistance other than true or false is "withDistance must be a boolean value".
[[nodiscard]] validated<location_query> parse_location_query(const query_params& params);

}  // namespace storefront::core
