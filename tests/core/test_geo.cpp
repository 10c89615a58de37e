// geo: great-circle distances against known values (including antimeridian, antipodes and poles) and
// the chord/kilometre conversions the location index relies on.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <boost/test/unit_test.hpp>

#include "core/geo.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(geo)

BOOST_AUTO_TEST_CASE(known_distances) {
    struct row {
        const char* name;
        geo_point a;
        geo_point b;
        double km;
        double tolerance_km;
    };
    const double half_circumference = std::numbers::pi * earth_radius_km;
    const row rows[] = {
        // The road distance is often quoted as ~240 km; the great-circle distance is 234.96 km.
        {"Bogota-Medellin", {4.6482784, -74.2726198}, {6.2443382, -75.6636873}, 235.0, 5.0},
        {"same point", {4.6482784, -74.2726198}, {4.6482784, -74.2726198}, 0.0, 1e-9},
        {"antipodes", {10, 20}, {-10, -160}, half_circumference, 1e-6},
        {"antipodes at the poles", {90, 0}, {-90, 0}, half_circumference, 1e-6},
        {"across the antimeridian", {0, 179.9}, {0, -179.9}, 22.239016, 1e-5},
        {"-180 equals 180", {12, 180}, {12, -180}, 0.0, 1e-6},
        {"near the north pole", {89.9, 0}, {89.9, 180}, 22.239016, 1e-5},
        {"longitude is moot at the pole", {90, 0}, {90, 123}, 0.0, 1e-6},
        {"pole to equator", {90, 0}, {0, 45}, half_circumference / 2, 1e-6},
        {"one metre", {0, 0}, {0, 0.001 / (earth_radius_km * std::numbers::pi / 180)}, 0.001, 1e-12},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.name) {
            BOOST_TEST(std::abs(great_circle_km(r.a, r.b) - r.km) <= r.tolerance_km);
            BOOST_TEST(std::abs(great_circle_km(r.b, r.a) - r.km) <= r.tolerance_km);
            // The chord route agrees too, though asin near antipodes (chord 2) only keeps about 0.2 m.
            const double via_chord =
                km_for_chord(std::sqrt(squared_chord(to_unit_vector(r.a), to_unit_vector(r.b))));
            BOOST_TEST(std::abs(via_chord - r.km) <= std::max(r.tolerance_km, 1e-3));
        }
    }
}

BOOST_AUTO_TEST_CASE(unit_vectors) {
    const unit_vector north = to_unit_vector({90, 0});
    BOOST_TEST(std::abs(north[2] - 1) < 1e-15);
    const unit_vector zero = to_unit_vector({0, 0});
    BOOST_TEST(zero[0] == 1.0);
    const unit_vector v = to_unit_vector({-33.4, 151.2});
    BOOST_TEST(std::abs(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - 1) < 1e-15);
}

BOOST_AUTO_TEST_CASE(chord_conversions) {
    const double half_circumference = std::numbers::pi * earth_radius_km;
    BOOST_TEST(chord_for_km(0) == 0.0);
    BOOST_TEST(chord_for_km(-5) == 0.0);
    BOOST_TEST(chord_for_km(half_circumference) == 2.0);
    BOOST_TEST(chord_for_km(25000) == 2.0);
    BOOST_TEST(chord_for_km(std::numeric_limits<double>::infinity()) == 2.0);
    BOOST_TEST(km_for_chord(0) == 0.0);
    BOOST_TEST(km_for_chord(-1) == 0.0);
    BOOST_TEST(std::abs(km_for_chord(2) - half_circumference) < 1e-9);
    BOOST_TEST(std::abs(km_for_chord(3) - half_circumference) < 1e-9);
    for (const double km : {0.001, 1.0, 100.0, 2500.0, 10000.0, 20000.0}) {
        BOOST_TEST_CONTEXT(km << " km") {
            BOOST_TEST(std::abs(km_for_chord(chord_for_km(km)) - km) <= 1e-9 * km + 1e-9);
        }
    }
    BOOST_TEST(chord_for_km(100) < chord_for_km(101));
}

BOOST_AUTO_TEST_SUITE_END()
