// Spherical geometry for the location index: degrees to unit vectors, great-circle distance, and the
// monotone conversions between chord length and great-circle kilometres.

#include "core/geo.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace storefront::core {
namespace {

constexpr double radians_per_degree = std::numbers::pi / 180.0;

}  // namespace

unit_vector to_unit_vector(const geo_point& p) noexcept {
    const double lat = p.latitude * radians_per_degree;
    const double lng = p.longitude * radians_per_degree;
    const double cos_lat = std::cos(lat);
    return {cos_lat * std::cos(lng), cos_lat * std::sin(lng), std::sin(lat)};
}

// The atan2 (Vincenty, sphere) form: well conditioned for tiny distances and for antipodes alike,
// where the plain haversine's asin and the spherical law of cosines lose precision.
double great_circle_km(const geo_point& a, const geo_point& b) noexcept {
    const double lat1 = a.latitude * radians_per_degree;
    const double lat2 = b.latitude * radians_per_degree;
    const double dlng = (b.longitude - a.longitude) * radians_per_degree;
    const double sin1 = std::sin(lat1);
    const double cos1 = std::cos(lat1);
    const double sin2 = std::sin(lat2);
    const double cos2 = std::cos(lat2);
    const double sin_dlng = std::sin(dlng);
    const double cos_dlng = std::cos(dlng);
    const double y1 = cos2 * sin_dlng;
    const double y2 = cos1 * sin2 - sin1 * cos2 * cos_dlng;
    const double x = sin1 * sin2 + cos1 * cos2 * cos_dlng;
    return std::atan2(std::hypot(y1, y2), x) * earth_radius_km;
}

double chord_for_km(double km) noexcept {
    if (!(km > 0)) {
        return 0;  // also NaN
    }
    const double angle = km / earth_radius_km;
    if (angle >= std::numbers::pi) {
        return 2;  // half the circumference or more (including infinity) reaches the whole sphere
    }
    return 2 * std::sin(angle / 2);
}

double km_for_chord(double chord) noexcept {
    const double c = std::clamp(chord, 0.0, 2.0);
    return 2 * std::asin(c / 2) * earth_radius_km;
}

double squared_chord(const unit_vector& a, const unit_vector& b) noexcept {
    const double dx = a[0] - b[0];
    const double dy = a[1] - b[1];
    const double dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

}  // namespace storefront::core
