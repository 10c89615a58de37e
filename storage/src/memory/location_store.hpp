#pragma once
// In-memory location_store: a vector of locations and a bounding-box tree over it, immutable after
// construction.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/location_index.hpp"
#include "storage/location_store.hpp"

namespace storefront::storage {

class memory_location_store final : public location_store {
  public:
    // Sorts by id and builds the index (O(n log n)). Throws std::invalid_argument on a duplicate id,
    // a coordinate out of range, or more locations than the index can address.
    explicit memory_location_store(std::vector<core::location> locations);

    [[nodiscard]] std::span<const core::location> all() const override { return locations_; }
    [[nodiscard]] std::size_t random_positions(std::uint64_t seed, std::span<std::uint32_t> out)
        const override;
    [[nodiscard]] std::size_t nearest_positions(
        const core::geo_point& origin, std::optional<double> radius_km, std::span<core::neighbour> out
    ) const override;

  private:
    std::vector<core::location> locations_;  // sorted by id; an index slot is a position here
    core::location_index index_;
};

}  // namespace storefront::storage
