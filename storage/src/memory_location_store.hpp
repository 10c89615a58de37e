#pragma once
// In-memory location_store: a vector of locations and a k-d index over it, immutable after construction.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/location_index.hpp"
#include "storage/location_store.hpp"

namespace storefront::storage {

class memory_location_store final : public location_store {
  public:
    // Sorts by id and builds the index (O(n log n)). Throws std::invalid_argument on a duplicate id,
    // a coordinate out of range, or more locations than the index can address.
    explicit memory_location_store(std::vector<core::location> locations);

    [[nodiscard]] std::size_t location_count() const override;
    [[nodiscard]] std::vector<core::location> random_locations(std::size_t count, std::uint64_t seed)
        const override;
    [[nodiscard]] std::vector<core::location> nearest_locations(
        const core::geo_point& origin, std::size_t count, std::optional<double> radius_km
    ) const override;

  private:
    std::vector<core::location> locations_;  // sorted by id; an index slot is a position here
    core::location_index index_;
};

}  // namespace storefront::storage
