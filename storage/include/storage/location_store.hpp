#pragma once
// Port for geographic locations: random samples and great-circle nearest-neighbour searches, answered as
// positions into the store's own immutable set so a caller copies nothing it does not need.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/geo.hpp"
#include "core/location_index.hpp"
#include "core/model.hpp"

namespace storefront::storage {

class location_store {
  public:
    virtual ~location_store() = default;

    [[nodiscard]] std::size_t location_count() const { return all().size(); }

    // Every location, in id order. The set never changes, so the span and its elements stay valid and
    // unchanged for the store's lifetime; the positions below index into it.
    [[nodiscard]] virtual std::span<const core::location> all() const = 0;

    // Positions of out.size() distinct locations chosen uniformly at random (fewer if the store holds
    // fewer), ascending, written to `out`; returns how many. The same `seed` gives the same answer.
    [[nodiscard]] virtual std::size_t random_positions(std::uint64_t seed, std::span<std::uint32_t> out)
        const = 0;

    // Up to out.size() locations nearest to `origin` as (position, great-circle km), nearest first (ties by
    // id), none farther than `radius_km` when given, written to `out`; returns how many.
    [[nodiscard]] virtual std::size_t nearest_positions(
        const core::geo_point& origin, std::optional<double> radius_km, std::span<core::neighbour> out
    ) const = 0;

    // Copies of the answers above, for callers that want values (tests, tools).
    [[nodiscard]] std::vector<core::location> random_locations(std::size_t count, std::uint64_t seed) const;
    [[nodiscard]] std::vector<core::location> nearest_locations(
        const core::geo_point& origin, std::size_t count, std::optional<double> radius_km
    ) const;
};

}  // namespace storefront::storage
