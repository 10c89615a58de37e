// location_index: every answer must equal a brute-force scan (same slots in the same order, same
// distances) over seeded random points: uniform on the sphere, at the antimeridian, around both poles.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/geo.hpp"
#include "core/location_index.hpp"

using namespace storefront::core;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// The index's documented radius rule: squared chord within the radius's, plus 1e-9 relative and 1e-20.
bool inside(double squared, double radius_km) {
    if (!(radius_km >= 0)) {
        return false;
    }
    const double chord = chord_for_km(radius_km);
    return squared <= chord * chord * (1 + 1e-9) + 1e-20;
}

struct brute_force {
    explicit brute_force(std::vector<indexed_point> points) : points_(std::move(points)) {}

    // All points by (squared chord, slot), computed exactly as the index does.
    struct ranked_point {
        double squared;
        std::uint32_t slot;
    };

    std::vector<ranked_point> ranked(const geo_point& origin) const {
        const unit_vector q = to_unit_vector(origin);
        std::vector<ranked_point> all;
        all.reserve(points_.size());
        for (const indexed_point& p : points_) {
            all.push_back({squared_chord(q, to_unit_vector(p.position)), p.slot});
        }
        std::sort(all.begin(), all.end(), [](const ranked_point& a, const ranked_point& b) {
            return a.squared < b.squared || (a.squared == b.squared && a.slot < b.slot);
        });
        return all;
    }

    static std::vector<neighbour> answer(
        const std::vector<ranked_point>& ranked, std::size_t k, double max_km
    ) {
        std::vector<neighbour> out;
        for (const auto& [squared, slot] : ranked) {
            if (out.size() == k || !inside(squared, max_km)) {
                break;
            }
            out.push_back({slot, km_for_chord(std::sqrt(squared))});
        }
        return out;
    }

    std::vector<indexed_point> points_;
};

std::vector<std::uint32_t> slots_of(const std::vector<neighbour>& found) {
    std::vector<std::uint32_t> slots;
    for (const neighbour& n : found) {
        slots.push_back(n.slot);
    }
    return slots;
}

// One assertion per query (not per element) keeps the 10,000-point comparisons fast; a mismatch names
// the first differing position.
void expect_same(const std::vector<neighbour>& got, const std::vector<neighbour>& expected) {
    BOOST_TEST(got.size() == expected.size());
    const auto same = [](const neighbour& a, const neighbour& b) {
        return a.slot == b.slot && a.distance_km == b.distance_km;
    };
    const std::size_t common = std::min(got.size(), expected.size());
    const auto [g, e] = std::mismatch(got.begin(), got.begin() + common, expected.begin(), same);
    if (g != got.begin() + common) {
        BOOST_ERROR(
            "first difference at " << (g - got.begin()) << ": slot " << g->slot << " at " << g->distance_km
                                   << " km, expected slot " << e->slot << " at " << e->distance_km << " km"
        );
    }
}

// Checks nearest() for every k and radius and within() for every radius from one origin.
void check_queries(
    const location_index& index,
    const brute_force& brute,
    const std::vector<indexed_point>& points,
    const geo_point& origin,
    const std::vector<std::size_t>& ks,
    const std::vector<double>& radii
) {
    const auto ranked = brute.ranked(origin);
    for (const double radius : radii) {
        for (const std::size_t k : ks) {
            BOOST_TEST_CONTEXT(
                "nearest origin (" << origin.latitude << "," << origin.longitude << ") k " << k << " max_km "
                                   << radius
            ) {
                expect_same(index.nearest(origin, k, radius), brute_force::answer(ranked, k, radius));
            }
        }
        BOOST_TEST_CONTEXT(
            "within origin (" << origin.latitude << "," << origin.longitude << ") " << radius
        ) {
            const auto found = index.within(origin, radius);
            expect_same(found, brute_force::answer(ranked, points.size(), radius));
        }
    }
}

geo_point uniform_on_sphere(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> z(-1, 1);
    std::uniform_real_distribution<double> lng(-180, 180);
    return {std::asin(z(rng)) * 180 / std::numbers::pi, lng(rng)};
}

std::vector<indexed_point> with_slots(const std::vector<geo_point>& positions) {
    std::vector<indexed_point> points;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        points.push_back({static_cast<std::uint32_t>(i), positions[i]});
    }
    return points;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(location_index_suite)

BOOST_AUTO_TEST_CASE(uniform_points_match_brute_force) {
    std::mt19937_64 rng(20240601);
    std::vector<geo_point> positions;
    for (int i = 0; i < 10'000; ++i) {
        positions.push_back(uniform_on_sphere(rng));
    }
    const auto points = with_slots(positions);
    const location_index index(points);
    BOOST_TEST(index.size() == points.size());
    const brute_force brute(points);

    std::vector<geo_point> origins;
    for (int i = 0; i < 200; ++i) {
        origins.push_back(uniform_on_sphere(rng));
    }
    origins.push_back(positions[17]);  // exactly on a point
    for (const geo_point special : std::initializer_list<geo_point>{
             {90, 0}, {-90, 0}, {90, 180}, {-90, -180}, {0, 180}, {0, -180}, {45, 180}, {-45, -180}}) {
        origins.push_back(special);
    }
    for (const geo_point& origin : origins) {
        check_queries(index, brute, points, origin, {1, 5, 50}, {0, 1, 100, 2500, 25000, infinity});
    }
}

// Points in a few tight clusters, queried from origins far from all of them (oceans, poles, the
// antimeridian) and inside them: the best-first search must still agree with brute force exactly.
BOOST_AUTO_TEST_CASE(clustered_points_match_brute_force_from_far_origins) {
    std::mt19937_64 rng(99);
    const std::vector<geo_point> centres{
        {4.7, -74.1},
        {51.5, -0.1},
        {-33.9, 151.2},
        {-18.1, 178.4},
        {64.8, -179.9},
        {-89.0, 0.0},
        {35.7, 139.7}};
    std::uniform_real_distribution<double> jitter(-0.3, 0.3);
    std::vector<geo_point> positions;
    for (int i = 0; i < 6'000; ++i) {
        const geo_point& c = centres[static_cast<std::size_t>(i) % centres.size()];
        positions.push_back(
            {std::clamp(c.latitude + jitter(rng), -90.0, 90.0),
             std::remainder(c.longitude + jitter(rng), 360.0)}
        );
    }
    positions.push_back(positions[5]);  // an exact duplicate: ties are broken by slot
    const auto points = with_slots(positions);
    const location_index index(points);
    const brute_force brute(points);
    std::vector<geo_point> origins{
        {0, -140}, {-45, -30}, {30, -40}, {-60, 90}, {0, 180}, {90, 0}, {-90, 0}, positions[5], centres[3]};
    for (int i = 0; i < 40; ++i) {
        origins.push_back(uniform_on_sphere(rng));
    }
    for (const geo_point& origin : origins) {
        check_queries(index, brute, points, origin, {1, 5, 50}, {0, 30, 1000, 5000, infinity});
    }
}

// Every set size up to a few leaves: the tree's nodes then have two, three or four children (or the root
// is a single leaf), and each shape must agree with brute force. A buffer larger than the index (the
// handler's span is the query's size, a location file may be smaller) gets every point exactly once.
BOOST_AUTO_TEST_CASE(small_sets_of_every_size_match_brute_force) {
    std::mt19937_64 rng(11);
    for (std::size_t n = 1; n <= 80; ++n) {
        std::vector<geo_point> positions;
        for (std::size_t i = 0; i < n; ++i) {
            positions.push_back(uniform_on_sphere(rng));
        }
        const auto points = with_slots(positions);
        const location_index index(points);
        const brute_force brute(points);
        for (int i = 0; i < 5; ++i) {
            BOOST_TEST_CONTEXT("n " << n) {
                check_queries(index, brute, points, uniform_on_sphere(rng), {1, 5, 50}, {0, 2500, infinity});
            }
        }
        std::vector<neighbour> buffer(n + 20);
        const geo_point origin = uniform_on_sphere(rng);
        BOOST_TEST_CONTEXT("n " << n << ", a buffer of " << buffer.size()) {
            const std::size_t found = index.nearest(origin, infinity, std::span(buffer));
            BOOST_TEST_REQUIRE(found == n);
            expect_same(
                {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(found)},
                brute_force::answer(brute.ranked(origin), n, infinity)
            );
        }
    }
}

// The allocation-free form writes the same answer as the vector form, into a buffer of size k.
BOOST_AUTO_TEST_CASE(span_form_matches_vector_form) {
    std::mt19937_64 rng(5);
    std::vector<geo_point> positions;
    for (int i = 0; i < 3'000; ++i) {
        positions.push_back(uniform_on_sphere(rng));
    }
    const location_index index(with_slots(positions));
    std::vector<neighbour> buffer(64, neighbour{999999, -1.0});
    for (int i = 0; i < 50; ++i) {
        const geo_point origin = uniform_on_sphere(rng);
        for (const std::size_t k : {1, 7, 64}) {
            for (const double radius : {200.0, infinity}) {
                BOOST_TEST_CONTEXT("k " << k << " radius " << radius) {
                    const auto expected = index.nearest(origin, k, radius);
                    const std::size_t n = index.nearest(origin, radius, std::span(buffer).first(k));
                    BOOST_TEST_REQUIRE(n == expected.size());
                    expect_same({buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n)}, expected);
                }
            }
        }
    }
    BOOST_TEST(index.nearest({0, 0}, infinity, std::span<neighbour>{}) == 0u);
    BOOST_TEST(location_index{}.nearest({0, 0}, infinity, std::span(buffer)) == 0u);
    BOOST_TEST(location_index{}.within({0, 0}, infinity).empty());
}

BOOST_AUTO_TEST_CASE(radius_agrees_with_great_circle_distance) {
    std::mt19937_64 rng(7);
    std::vector<geo_point> positions;
    for (int i = 0; i < 2'000; ++i) {
        positions.push_back(uniform_on_sphere(rng));
    }
    const location_index index(with_slots(positions));
    for (int i = 0; i < 20; ++i) {
        const geo_point origin = uniform_on_sphere(rng);
        for (const double radius : {100.0, 2500.0, 15000.0}) {
            BOOST_TEST_CONTEXT("radius " << radius) {
                const auto found = index.within(origin, radius);
                std::vector<bool> hit(positions.size());
                for (const neighbour& n : found) {
                    hit[n.slot] = true;
                    BOOST_TEST(std::abs(n.distance_km - great_circle_km(origin, positions[n.slot])) < 1e-6);
                }
                for (std::size_t s = 0; s < positions.size(); ++s) {
                    const double km = great_circle_km(origin, positions[s]);
                    if (km < radius - 1e-6 || km > radius + 1e-6) {
                        BOOST_TEST(hit[s] == (km <= radius));
                    }
                }
                BOOST_TEST(std::is_sorted(
                    found.begin(),
                    found.end(),
                    [](const neighbour& a, const neighbour& b) { return a.distance_km < b.distance_km; }
                ));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(point_exactly_at_the_radius_is_inside) {
    const geo_point origin{4.6482784, -74.2726198};
    const geo_point other{6.2443382, -75.6636873};
    const location_index index(with_slots({other}));
    const double km = great_circle_km(origin, other);
    BOOST_TEST(index.within(origin, km).size() == 1U);
    BOOST_TEST(index.nearest(origin, 1, km).size() == 1U);
    BOOST_TEST(index.within(origin, km - 0.001).empty());
    BOOST_TEST(index.within(origin, std::nextafter(km, 0.0) * (1 - 1e-6)).empty());
}

BOOST_AUTO_TEST_CASE(antimeridian_cluster_matches_brute_force) {
    std::mt19937_64 rng(180);
    std::uniform_real_distribution<double> offset(0, 0.5);
    std::uniform_real_distribution<double> lat(-2, 2);
    std::bernoulli_distribution east(0.5);
    std::vector<geo_point> positions;
    for (int i = 0; i < 3'000; ++i) {
        const double d = offset(rng);
        positions.push_back({lat(rng), east(rng) ? 180 - d : -180 + d});
    }
    positions.push_back({0, 180});
    positions.push_back({0, -180});
    const auto points = with_slots(positions);
    const location_index index(points);
    const brute_force brute(points);
    std::vector<geo_point> origins = {{0, 180}, {0, -180}, {1, 179.99}, {-1, -179.99}, {0, 0}, {90, 0}};
    for (int i = 0; i < 60; ++i) {
        const double d = offset(rng);
        origins.push_back({lat(rng), east(rng) ? 180 - d : -180 + d});
    }
    for (const geo_point& origin : origins) {
        check_queries(index, brute, points, origin, {1, 5, 50}, {0, 1, 10, 100, 25000, infinity});
    }
}

BOOST_AUTO_TEST_CASE(polar_clusters_match_brute_force) {
    std::mt19937_64 rng(90);
    std::uniform_real_distribution<double> offset(0, 1);
    std::uniform_real_distribution<double> lng(-180, 180);
    std::vector<geo_point> positions;
    for (int i = 0; i < 2'000; ++i) {
        positions.push_back({90 - offset(rng), lng(rng)});
        positions.push_back({-90 + offset(rng), lng(rng)});
    }
    positions.push_back({90, 0});
    positions.push_back({90, 180});
    positions.push_back({-90, -180});
    const auto points = with_slots(positions);
    const location_index index(points);
    const brute_force brute(points);
    std::vector<geo_point> origins = {{90, 0}, {-90, 0}, {90, -180}, {-90, 180}, {89.5, 45}, {0, 0}};
    for (int i = 0; i < 60; ++i) {
        origins.push_back({(i % 2 == 0 ? 90 : -90) * (1 - offset(rng) / 80), lng(rng)});
    }
    for (const geo_point& origin : origins) {
        check_queries(index, brute, points, origin, {1, 5, 50}, {0, 1, 10, 100, 25000, infinity});
    }
}

BOOST_AUTO_TEST_CASE(duplicates_tie_by_slot) {
    std::mt19937_64 rng(3);
    std::vector<indexed_point> points;
    const geo_point here{48.8566, 2.3522};
    for (std::uint32_t slot = 0; slot < 40; ++slot) {
        points.push_back({slot, slot % 2 == 0 ? here : uniform_on_sphere(rng)});
    }
    std::shuffle(points.begin(), points.end(), rng);
    const location_index index(points);

    const auto five = index.nearest(here, 5);
    BOOST_TEST(
        slots_of(five) == (std::vector<std::uint32_t>{0, 2, 4, 6, 8}), boost::test_tools::per_element()
    );
    for (const neighbour& n : five) {
        BOOST_TEST(n.distance_km == 0.0);
    }
    const auto at_zero = index.within(here, 0);
    BOOST_TEST(at_zero.size() == 20U);
    BOOST_TEST(std::is_sorted(at_zero.begin(), at_zero.end(), [](const neighbour& a, const neighbour& b) {
        return a.slot < b.slot;
    }));
    const brute_force brute(points);
    check_queries(index, brute, points, here, {1, 5, 20, 21, 100}, {0, 1, 1000, infinity});
}

// Leaves keep their points as floats and prune on a bound derived from them: points closer together than
// a float can tell (1e-9 to 1e-6 degrees apart, so many round to the same floats) must still come back in
// exact double order, ties by slot, from origins inside, beside and far from them.
BOOST_AUTO_TEST_CASE(points_closer_than_float_resolution_match_brute_force) {
    std::mt19937_64 rng(2611);
    const std::vector<geo_point> centres{{4.6482784, -74.2726198}, {-0.0000001, 179.9999999}, {89.9999, 10}};
    std::uniform_int_distribution<int> steps(-1000, 1000);
    std::vector<geo_point> positions;
    for (const geo_point& c : centres) {
        for (const double step : {1e-9, 1e-7, 1e-6}) {
            for (int i = 0; i < 400; ++i) {
                positions.push_back(
                    {std::clamp(c.latitude + steps(rng) * step, -90.0, 90.0),
                     std::remainder(c.longitude + steps(rng) * step, 360.0)}
                );
            }
        }
    }
    positions.push_back(positions[7]);  // exact duplicates tie by slot
    positions.push_back(positions[7]);
    const auto points = with_slots(positions);
    const location_index index(points);
    const brute_force brute(points);
    std::vector<geo_point> origins{positions[7], positions[1500], {0, 0}, {-89, -170}};
    for (const geo_point& c : centres) {
        for (const double away : {0.0, 1e-8, 1e-5, 0.01, 1.0}) {
            origins.push_back({std::clamp(c.latitude + away, -90.0, 90.0), c.longitude - away});
        }
    }
    for (const geo_point& origin : origins) {
        check_queries(index, brute, points, origin, {1, 5, 50}, {0, 1e-6, 0.001, 1, infinity});
    }
}

// Many small clusters like the generated data set (points within a few km of "cities"), queried from
// uniformly random origins, the search's slowest case, and from the clusters' own points.
BOOST_AUTO_TEST_CASE(many_clusters_from_random_origins_match_brute_force) {
    std::mt19937_64 rng(4646);
    std::vector<geo_point> centres;
    for (int i = 0; i < 150; ++i) {
        centres.push_back(uniform_on_sphere(rng));
    }
    std::uniform_real_distribution<double> jitter(-0.05, 0.05);
    std::vector<geo_point> positions;
    for (int i = 0; i < 12'000; ++i) {
        const geo_point& c = centres[static_cast<std::size_t>(i) % centres.size()];
        positions.push_back(
            {std::clamp(c.latitude + jitter(rng), -90.0, 90.0),
             std::remainder(c.longitude + jitter(rng), 360.0)}
        );
    }
    const auto points = with_slots(positions);
    const location_index index(points);
    const brute_force brute(points);
    std::uniform_real_distribution<double> latitude(-60, 60);
    std::uniform_real_distribution<double> longitude(-180, 180);
    for (int i = 0; i < 60; ++i) {
        const geo_point origin = i % 4 == 0 ? positions[static_cast<std::size_t>(i) * 97]
                                            : geo_point{latitude(rng), longitude(rng)};
        check_queries(index, brute, points, origin, {1, 5}, {100, 1000, infinity});
    }
}

BOOST_AUTO_TEST_CASE(empty_index_and_degenerate_queries) {
    const location_index empty;
    BOOST_TEST(empty.size() == 0U);
    BOOST_TEST(empty.nearest({0, 0}, 5).empty());
    BOOST_TEST(empty.within({0, 0}, 25000).empty());
    const location_index built_empty(std::vector<indexed_point>{});
    BOOST_TEST(built_empty.nearest({0, 0}, 5).empty());
    BOOST_TEST(built_empty.within({0, 0}, infinity).empty());

    const location_index index(with_slots({{1, 1}, {2, 2}, {3, 3}}));
    BOOST_TEST(index.nearest({0, 0}, 0).empty());
    BOOST_TEST(index.nearest({0, 0}, 0, infinity).empty());
    BOOST_TEST(index.nearest({0, 0}, 10).size() == 3U);
    BOOST_TEST(index.nearest({0, 0}, 10, -1).empty());
    BOOST_TEST(index.within({0, 0}, -1).empty());
    BOOST_TEST(index.within({0, 0}, std::numeric_limits<double>::quiet_NaN()).empty());
    BOOST_TEST(index.nearest({1, 1}, 1, 0).size() == 1U);
}

BOOST_AUTO_TEST_SUITE_END()
