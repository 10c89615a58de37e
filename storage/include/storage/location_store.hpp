#pragma once
// Port for geographic locations: random samples and great-circle nearest-neighbour searches.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/geo.hpp"
#include "core/model.hpp"

namespace storefront::storage {

class location_store {
  public:
    virtual ~location_store() = default;

    [[nodiscard]] virtual std::size_t location_count() const = 0;

    // `count` distinct locations chosen uniformly at random (fewer if the store holds fewer), in id order.
    // The same `seed` gives the same answer.
    [[nodiscard]] virtual std::vector<core::location> random_locations(std::size_t count, std::uint64_t seed)
        const = 0;

    // Up to `count` locations nearest to `origin`, nearest first, none farther than `radius_km` when given.
    [[nodiscard]] virtual std::vector<core::location> nearest_locations(
        const core::geo_point& origin, std::size_t count, std::optional<double> radius_km
    ) const = 0;
};

}  // namespace storefront::storage
