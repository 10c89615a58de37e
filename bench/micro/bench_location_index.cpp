// Location index against a brute-force scan: build, k-nearest and within-radius at 10^3 .. 10^6 uniformly
// distributed points (the brute force gets precomputed unit vectors, its best case); and the generated,
// clustered set from a city centre, from the middle of the Pacific and from uniformly random origins.

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/geo.hpp"
#include "core/location_index.hpp"
#include "storage/factory.hpp"
#include "storage/location_store.hpp"

namespace {

using namespace storefront::core;

constexpr std::size_t k_nearest = 5;
constexpr double radius_km = 100;  // about 60 points of 10^6 on the sphere; about 0 of 10^3
constexpr std::size_t query_count = 1024;
constexpr double infinity_km = std::numeric_limits<double>::infinity();

struct splitmix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    geo_point point() {
        const double latitude = std::asin(2 * unit() - 1) * 180 / std::numbers::pi;
        return {latitude, unit() * 360 - 180};
    }
};

std::vector<indexed_point> make_points(std::size_t n) {
    splitmix64 rng{n};
    std::vector<indexed_point> points;
    points.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        points.push_back({static_cast<std::uint32_t>(i), rng.point()});
    }
    return points;
}

std::vector<geo_point> make_queries() {
    splitmix64 rng{42};
    std::vector<geo_point> queries;
    for (std::size_t i = 0; i < query_count; ++i) {
        queries.push_back(rng.point());
    }
    return queries;
}

// One data set per size, built once and shared by the benchmarks of that size.
struct fixture {
    std::vector<indexed_point> points;
    std::vector<unit_vector> vectors;
    location_index index;
    std::vector<geo_point> queries;
};

const fixture& data(std::size_t n) {
    static std::vector<std::pair<std::size_t, std::unique_ptr<fixture>>> cache;
    for (const auto& [size, f] : cache) {
        if (size == n) {
            return *f;
        }
    }
    auto f = std::make_unique<fixture>();
    f->points = make_points(n);
    for (const auto& p : f->points) {
        f->vectors.push_back(to_unit_vector(p.position));
    }
    f->index = location_index(f->points);
    f->queries = make_queries();
    cache.emplace_back(n, std::move(f));
    return *cache.back().second;
}

struct scored {
    double squared_chord;
    std::uint32_t slot;
    bool operator<(const scored& o) const {
        return squared_chord < o.squared_chord || (squared_chord == o.squared_chord && slot < o.slot);
    }
};

std::vector<neighbour> brute_nearest(const fixture& f, const geo_point& origin, std::size_t k) {
    const unit_vector q = to_unit_vector(origin);
    std::vector<scored> heap;  // max-heap of the best k so far
    heap.reserve(k);
    for (std::uint32_t i = 0; i < f.vectors.size(); ++i) {
        const scored s{squared_chord(q, f.vectors[i]), i};
        if (heap.size() < k) {
            heap.push_back(s);
            std::push_heap(heap.begin(), heap.end());
        } else if (s < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = s;
            std::push_heap(heap.begin(), heap.end());
        }
    }
    std::sort(heap.begin(), heap.end());
    std::vector<neighbour> out;
    for (const auto& s : heap) {
        out.push_back({s.slot, km_for_chord(std::sqrt(s.squared_chord))});
    }
    return out;
}

std::vector<neighbour> brute_within(const fixture& f, const geo_point& origin, double km) {
    const unit_vector q = to_unit_vector(origin);
    const double chord = chord_for_km(km);
    const double bound = chord * chord;
    std::vector<scored> found;
    for (std::uint32_t i = 0; i < f.vectors.size(); ++i) {
        const double sq = squared_chord(q, f.vectors[i]);
        if (sq <= bound) {
            found.push_back({sq, i});
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<neighbour> out;
    for (const auto& s : found) {
        out.push_back({s.slot, km_for_chord(std::sqrt(s.squared_chord))});
    }
    return out;
}

void sizes(benchmark::internal::Benchmark* b) {
    for (const long n : {1'000L, 10'000L, 100'000L, 1'000'000L}) {
        b->Arg(n);
    }
}

void BM_kd_build(benchmark::State& state) {
    const auto points = make_points(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        location_index index(points);
        benchmark::DoNotOptimize(index.size());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_kd_build)->Apply(sizes)->Unit(benchmark::kMillisecond);

void BM_kd_nearest5(benchmark::State& state) {
    const fixture& f = data(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(f.index.nearest(f.queries[i++ % query_count], k_nearest));
    }
}
BENCHMARK(BM_kd_nearest5)->Apply(sizes)->Unit(benchmark::kMicrosecond);

void BM_brute_nearest5(benchmark::State& state) {
    const fixture& f = data(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(brute_nearest(f, f.queries[i++ % query_count], k_nearest));
    }
}
BENCHMARK(BM_brute_nearest5)->Apply(sizes)->Unit(benchmark::kMicrosecond);

// The /locations?origin=&radius=100&size=5 query: k-nearest bounded by a radius.
void BM_kd_nearest5_within100km(benchmark::State& state) {
    const fixture& f = data(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(f.index.nearest(f.queries[i++ % query_count], k_nearest, radius_km));
    }
}
BENCHMARK(BM_kd_nearest5_within100km)->Apply(sizes)->Unit(benchmark::kMicrosecond);

void BM_kd_within100km(benchmark::State& state) {
    const fixture& f = data(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    std::size_t found = 0;
    for (auto _ : state) {
        const auto result = f.index.within(f.queries[i++ % query_count], radius_km);
        found += result.size();
        benchmark::DoNotOptimize(result);
    }
    state.counters["found"] = static_cast<double>(found) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_kd_within100km)->Apply(sizes)->Unit(benchmark::kMicrosecond);

void BM_brute_within100km(benchmark::State& state) {
    const fixture& f = data(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(brute_within(f, f.queries[i++ % query_count], radius_km));
    }
}
BENCHMARK(BM_brute_within100km)->Apply(sizes)->Unit(benchmark::kMicrosecond);

// The generated default set (points within 30 km of world cities), as the server holds it.
const storefront::storage::location_store& clustered(std::size_t n) {
    static std::vector<std::pair<std::size_t, std::unique_ptr<storefront::storage::location_store>>> cache;
    for (const auto& [size, store] : cache) {
        if (size == n) {
            return *store;
        }
    }
    storefront::storage::storage_config config;
    config.generated_locations = n;
    cache.emplace_back(n, storefront::storage::make_location_store(config));
    return *cache.back().second;
}

// Origins as bench/load/map_origins.lua draws them: latitude -60..60, any longitude (oceans included).
std::vector<geo_point> map_origins() {
    splitmix64 rng{7};
    std::vector<geo_point> out;
    for (std::size_t i = 0; i < query_count; ++i) {
        out.push_back({rng.unit() * 120 - 60, rng.unit() * 360 - 180});
    }
    return out;
}

// Args: set size, origin (0 Bogotá's centre, 1 the middle of the Pacific 0,-140, 2 uniformly random),
// radius km (0: none). What /locations?origin=&size=5[&radius=] asks the store.
void BM_clustered_nearest5(benchmark::State& state) {
    const auto& store = clustered(static_cast<std::size_t>(state.range(0)));
    static const std::vector<geo_point> random_origins = map_origins();
    const std::vector<geo_point> origins = state.range(1) == 0
                                               ? std::vector<geo_point>{{4.6482784, -74.2726198}}
                                           : state.range(1) == 1 ? std::vector<geo_point>{{0, -140}}
                                                                 : random_origins;
    const std::optional<double> radius =
        state.range(2) > 0 ? std::optional<double>(static_cast<double>(state.range(2))) : std::nullopt;
    std::array<neighbour, k_nearest> found{};
    std::size_t i = 0;
    std::size_t total = 0;
    for (auto _ : state) {
        total += store.nearest_positions(origins[i++ % origins.size()], radius, found);
        benchmark::DoNotOptimize(found);
    }
    state.counters["found"] = static_cast<double>(total) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_clustered_nearest5)
    ->ArgNames({"n", "origin", "radius"})
    ->ArgsProduct({{100'000, 1'000'000}, {0, 1, 2}, {0, 1000}})
    ->Unit(benchmark::kMicrosecond);

// A fixed number of 5-nearest queries from uniformly random origins (as BM_clustered_nearest5, origin 2),
// one iteration, for valgrind --tool=cachegrind: run it with queries 0 and N and subtract, so the build
// drops out and the difference / N is the cache misses of one query. Args: set (0: 100,000 uniform points,
// 1: 100,000 generated, 2: 1,000,000 generated), queries.
void BM_fixed_random_origin_queries(benchmark::State& state) {
    const auto queries = static_cast<std::size_t>(state.range(1));
    static const std::vector<geo_point> origins = map_origins();
    std::array<neighbour, k_nearest> found{};
    std::size_t total = 0;
    for (auto _ : state) {
        if (state.range(0) == 0) {
            const fixture& f = data(100'000);
            for (std::size_t i = 0; i < queries; ++i) {
                total += f.index.nearest(origins[i % origins.size()], infinity_km, std::span(found));
            }
        } else {
            const auto& store = clustered(state.range(0) == 1 ? 100'000 : 1'000'000);
            for (std::size_t i = 0; i < queries; ++i) {
                total += store.nearest_positions(origins[i % origins.size()], std::nullopt, found);
            }
        }
        benchmark::DoNotOptimize(found);
    }
    state.counters["found"] = static_cast<double>(total);
}
BENCHMARK(BM_fixed_random_origin_queries)
    ->ArgNames({"set", "queries"})
    ->ArgsProduct({{0, 1, 2}, {0, 1024, 8192}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
