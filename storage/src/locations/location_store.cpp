// The value-returning conveniences of the location_store port, written once over its position queries.

#include "storage/location_store.hpp"

#include <algorithm>

namespace storefront::storage {

std::vector<core::location> location_store::random_locations(std::size_t count, std::uint64_t seed) const {
    std::vector<std::uint32_t> positions(std::min(count, location_count()));
    positions.resize(random_positions(seed, positions));
    const auto set = all();
    std::vector<core::location> out;
    out.reserve(positions.size());
    for (const std::uint32_t p : positions) {
        out.push_back(set[p]);
    }
    return out;
}

std::vector<core::location> location_store::nearest_locations(
    const core::geo_point& origin, std::size_t count, std::optional<double> radius_km
) const {
    std::vector<core::neighbour> found(std::min(count, location_count()));
    found.resize(nearest_positions(origin, radius_km, found));
    const auto set = all();
    std::vector<core::location> out;
    out.reserve(found.size());
    for (const core::neighbour& n : found) {
        out.push_back(set[n.slot]);
    }
    return out;
}

}  // namespace storefront::storage
