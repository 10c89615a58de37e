#pragma once
// A static k-d tree over points on the sphere, stored as 3-D unit vectors. Answers k-nearest and
// within-radius queries by great-circle distance, exact across the antimeridian and at the poles.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/geo.hpp"

namespace storefront::core {

struct indexed_point {
    std::uint32_t slot;  // caller's index (e.g. position in its location vector)
    geo_point position;
};

struct neighbour {
    std::uint32_t slot;
    double distance_km;
};

class location_index {
  public:
    location_index() = default;
    // O(n log n) build; the input order does not matter.
    explicit location_index(const std::vector<indexed_point>& points);

    // Up to `k` points nearest to `origin`, nearest first, none farther than `max_km`.
    // Ties are broken by slot, so answers are deterministic.
    [[nodiscard]] std::vector<neighbour> nearest(
        const geo_point& origin, std::size_t k, double max_km = std::numeric_limits<double>::infinity()
    ) const;

    // Every point within `radius_km` of `origin`, nearest first (ties by slot).
    [[nodiscard]] std::vector<neighbour> within(const geo_point& origin, double radius_km) const;

    [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }

  private:
    struct node {
        unit_vector v;
        std::uint32_t slot;
        std::uint8_t axis;  // split axis of the subtree rooted here
    };
    void build(std::size_t first, std::size_t last, int depth);
    template <class Visit>
    void search(const unit_vector& q, std::size_t first, std::size_t last, double& bound_sq, Visit& visit)
        const;

    std::vector<node> nodes_;  // implicit balanced tree: the median of [first, last) is the subtree root
};

}  // namespace storefront::core
