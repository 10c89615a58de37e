// memory_location_store: random samples by Floyd's algorithm (O(count), independent of the set size)
// and nearest-neighbour answers from core::location_index.

#include "memory_location_store.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "random_bits.hpp"

namespace storefront::storage {
namespace {

core::location_index build_index(const std::vector<core::location>& locations) {
    std::vector<core::indexed_point> points;
    points.reserve(locations.size());
    for (std::size_t i = 0; i < locations.size(); ++i) {
        const auto& l = locations[i];
        points.push_back({static_cast<std::uint32_t>(i), {l.latitude, l.longitude}});
    }
    return core::location_index(points);
}

std::vector<core::location> checked(std::vector<core::location> locations) {
    if (locations.size() > std::numeric_limits<std::uint32_t>::max()) {
        throw std::invalid_argument("too many locations for the index");
    }
    std::sort(locations.begin(), locations.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    for (std::size_t i = 0; i < locations.size(); ++i) {
        const auto& l = locations[i];
        if (i > 0 && locations[i - 1].id == l.id) {
            throw std::invalid_argument("duplicate location id " + std::to_string(l.id));
        }
        // Negated comparisons also refuse NaN.
        if (!(l.latitude >= -90.0 && l.latitude <= 90.0) ||
            !(l.longitude >= -180.0 && l.longitude <= 180.0)) {
            throw std::invalid_argument("location " + std::to_string(l.id) + " has coordinates out of range");
        }
    }
    return locations;
}

}  // namespace

memory_location_store::memory_location_store(std::vector<core::location> locations)
    : locations_(checked(std::move(locations))), index_(build_index(locations_)) {}

std::size_t memory_location_store::location_count() const {
    return locations_.size();
}

std::vector<core::location> memory_location_store::random_locations(std::size_t count, std::uint64_t seed)
    const {
    const std::size_t n = locations_.size();
    count = std::min(count, n);
    std::mt19937_64 rng(seed);
    // Floyd's algorithm: for j in [n - count, n) pick t in [0, j]; take t unless already taken, else j.
    // Each count-subset is equally likely, and the work depends on count only.
    std::unordered_set<std::size_t> chosen;
    chosen.reserve(count);
    std::vector<std::size_t> positions;
    positions.reserve(count);
    for (std::size_t j = n - count; j < n; ++j) {
        const auto t =
            static_cast<std::size_t>(detail::uniform_below(rng, static_cast<std::uint64_t>(j) + 1));
        const std::size_t pick = chosen.insert(t).second ? t : j;
        if (pick == j) {
            chosen.insert(j);
        }
        positions.push_back(pick);
    }
    std::sort(positions.begin(), positions.end());  // positions follow id order
    std::vector<core::location> out;
    out.reserve(count);
    for (const std::size_t p : positions) {
        out.push_back(locations_[p]);
    }
    return out;
}

std::vector<core::location> memory_location_store::nearest_locations(
    const core::geo_point& origin, std::size_t count, std::optional<double> radius_km
) const {
    const double max_km = radius_km.value_or(std::numeric_limits<double>::infinity());
    if (count == 0 || !(max_km >= 0.0)) {
        return {};
    }
    const std::vector<core::neighbour> found = index_.nearest(origin, count, max_km);
    std::vector<core::location> out;
    out.reserve(found.size());
    for (const auto& n : found) {
        out.push_back(locations_[n.slot]);
    }
    return out;
}

}  // namespace storefront::storage
