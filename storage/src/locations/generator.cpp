// The location generator: a seeded mt19937_64 picks a city and a point on the disc around it, placed
// with vector (destination-point) geometry so it stays exact near the poles and across the antimeridian.

#include "locations/generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "core/geo.hpp"
#include "locations/place_names.hpp"
#include "locations/random_bits.hpp"
#include "locations/world_cities.hpp"

namespace storefront::storage::detail {
namespace {

constexpr double deg = std::numbers::pi / 180.0;

// The public service's default origin, which its clients use in examples.
constexpr core::geo_point default_origin{4.6482784, -74.2726198};

double round_micro(double degrees) {
    return std::round(degrees * 1e6) / 1e6;
}

// The point `distance_km` from `from` along the initial bearing `bearing_rad` (clockwise from north).
// Rotating the position vector towards the direction vector is the spherical destination formula in a
// form that needs no special case at the poles.
core::geo_point destination(const core::geo_point& from, double bearing_rad, double distance_km) {
    const double phi = from.latitude * deg;
    const double lambda = from.longitude * deg;
    const double delta = distance_km / core::earth_radius_km;
    const std::array<double, 3> p{
        std::cos(phi) * std::cos(lambda), std::cos(phi) * std::sin(lambda), std::sin(phi)};
    const std::array<double, 3> east{-std::sin(lambda), std::cos(lambda), 0.0};
    const std::array<double, 3> north{
        -std::sin(phi) * std::cos(lambda),
        -std::sin(phi) * std::sin(lambda),
        std::cos(phi),
    };
    std::array<double, 3> q{};
    for (std::size_t i = 0; i < 3; ++i) {
        const double dir = std::cos(bearing_rad) * north[i] + std::sin(bearing_rad) * east[i];
        q[i] = std::cos(delta) * p[i] + std::sin(delta) * dir;
    }
    const double latitude = std::asin(std::clamp(q[2], -1.0, 1.0)) / deg;
    const double longitude = std::atan2(q[1], q[0]) / deg;
    return {
        std::clamp(round_micro(latitude), -90.0, 90.0),
        std::clamp(round_micro(longitude), -180.0, 180.0),
    };
}

}  // namespace

std::vector<core::location> generate_locations(std::size_t count, std::uint64_t seed) {
    std::vector<core::location> out;
    if (count == 0) {
        return out;
    }
    out.reserve(count);
    out.push_back({1, "Bogotá", "Bogotá, Colombia", default_origin.latitude, default_origin.longitude});

    const auto cities = world_cities();
    std::vector<std::uint64_t> cumulative;  // running weight totals, for a binary-searched weighted pick
    cumulative.reserve(cities.size());
    std::uint64_t total = 0;
    for (const auto& c : cities) {
        total += c.weight;
        cumulative.push_back(total);
    }

    std::mt19937_64 rng(seed);
    for (std::size_t i = 1; i < count; ++i) {
        const std::uint64_t ticket = uniform_below(rng, total);
        const auto city_index = static_cast<std::size_t>(
            std::upper_bound(cumulative.begin(), cumulative.end(), ticket) - cumulative.begin()
        );
        const world_city& city = cities[city_index];
        const double bearing = 2.0 * std::numbers::pi * unit_double(rng);
        // sqrt makes points uniform over the disc's area rather than bunched at its centre.
        const double distance = generated_spread_km * std::sqrt(unit_double(rng));
        const core::geo_point at = destination({city.latitude, city.longitude}, bearing, distance);

        core::location l;
        l.id = static_cast<std::int64_t>(i + 1);
        place_name place = name_place(seed, l.id, city.name, city.country);
        l.name = std::move(place.name);
        l.description = std::move(place.description);
        l.latitude = at.latitude;
        l.longitude = at.longitude;
        out.push_back(std::move(l));
    }
    return out;
}

}  // namespace storefront::storage::detail
