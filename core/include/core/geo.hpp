#pragma once
// Points on the sphere: degrees in, great-circle kilometres out, and the 3-D unit-vector form the
// location index works in (chord length orders exactly like great-circle distance).

#include <array>

namespace storefront::core {

inline constexpr double earth_radius_km = 6371.0088;  // IUGG mean radius

struct geo_point {
    double latitude = 0;   // degrees, [-90, 90]
    double longitude = 0;  // degrees, [-180, 180]
};

using unit_vector = std::array<double, 3>;

[[nodiscard]] unit_vector to_unit_vector(const geo_point& p) noexcept;

// Great-circle distance (haversine-stable form via atan2), kilometres.
[[nodiscard]] double great_circle_km(const geo_point& a, const geo_point& b) noexcept;

// Chord length between unit vectors for a great-circle distance in km, and back (clamped to [0, 2]).
[[nodiscard]] double chord_for_km(double km) noexcept;
[[nodiscard]] double km_for_chord(double chord) noexcept;

[[nodiscard]] double squared_chord(const unit_vector& a, const unit_vector& b) noexcept;

}  // namespace storefront::core
