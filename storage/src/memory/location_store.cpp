// memory_location_store: random samples by Floyd's algorithm (O(count), independent of the set size)
// and nearest-neighbour answers from core::location_index.

#include "storage/location_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/location_index.hpp"
#include "memory/stores.hpp"
#include "storage/huge_pages.hpp"

namespace storefront::storage {
namespace {

// Samples up to this size check "already taken" by scanning the picks so far: cheaper than a hash set.
constexpr std::size_t small_sample = 64;

// SplitMix64 (Steele, Lea, Flood 2014): one add and three xor-shift-multiplies per draw, 8 bytes of state.
struct splitmix64 {
    std::uint64_t state;
    std::uint64_t operator()() noexcept {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
};

// An integer in [0, bound), without modulo bias (rejects the short top range); `bound` must be > 0.
std::uint64_t uniform_below(splitmix64& rng, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    for (;;) {
        const std::uint64_t x = rng();
        if (x >= threshold) {
            return x % bound;
        }
    }
}

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

class memory_location_store final : public location_store {
  public:
    // Sorts by id and builds the index (O(n log n)). Throws std::invalid_argument on a duplicate id,
    // a coordinate out of range, or more locations than the index can address.
    explicit memory_location_store(std::vector<core::location> locations)
        : locations_(checked(std::move(locations))), index_(build_index(locations_)) {
        for (const auto region : index_.memory()) {
            prefer_huge_pages(region);
        }
    }

    [[nodiscard]] std::span<const core::location> all() const override { return locations_; }
    std::size_t random_positions(std::uint64_t seed, std::span<std::uint32_t> out) const override {
        const std::size_t n = locations_.size();
        const std::size_t count = std::min(out.size(), n);
        // SplitMix64 rather than std::mt19937_64: seeding a Mersenne Twister fills 312 words, which cost
        // more than the whole sample of a typical request.
        splitmix64 rng{seed};
        // Floyd's algorithm: for j in [n - count, n) pick t in [0, j]; take t unless already taken, else j.
        // Each count-subset is equally likely, and the work depends on count only.
        std::unordered_set<std::uint32_t> chosen;  // only for large samples; small ones scan `out`
        const bool small = count <= small_sample;
        if (!small) {
            chosen.reserve(count);
        }
        std::size_t picked = 0;
        for (std::size_t j = n - count; j < n; ++j) {
            const auto t = static_cast<std::uint32_t>(uniform_below(rng, static_cast<std::uint64_t>(j) + 1));
            const bool taken = small ? std::find(out.begin(), out.begin() + picked, t) != out.begin() + picked
                                     : !chosen.insert(t).second;
            const auto pick = taken ? static_cast<std::uint32_t>(j) : t;
            if (!small && taken) {
                chosen.insert(pick);
            }
            out[picked++] = pick;
        }
        std::sort(out.begin(), out.begin() + picked);  // positions follow id order
        return picked;
    }

    std::size_t nearest_positions(
        const core::geo_point& origin, std::optional<double> radius_km, std::span<core::neighbour> out
    ) const override {
        const double max_km = radius_km.value_or(std::numeric_limits<double>::infinity());
        if (out.empty() || !(max_km >= 0.0)) {
            return 0;
        }
        return index_.nearest(origin, max_km, out.first(std::min(out.size(), locations_.size())));
    }

  private:
    std::vector<core::location> locations_;  // sorted by id; an index slot is a position here
    core::location_index index_;
};

}  // namespace

std::unique_ptr<location_store> make_memory_location_store(std::vector<core::location> locations) {
    return std::make_unique<memory_location_store>(std::move(locations));
}

}  // namespace storefront::storage
