#pragma once
// A static bounding-box tree over points on the sphere, stored as 3-D unit vectors. Answers k-nearest and
// within-radius queries by great-circle distance, exact across the antimeridian and at the poles, with a
// best-first search whose cost does not depend on how far the origin lies from the points.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
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

    // The same answer written into `out` (k = out.size()) without allocating; returns how many were written.
    [[nodiscard]] std::size_t nearest(const geo_point& origin, double max_km, std::span<neighbour> out) const;

    // Every point within `radius_km` of `origin`, nearest first (ties by slot).
    [[nodiscard]] std::vector<neighbour> within(const geo_point& origin, double radius_km) const;

    [[nodiscard]] std::size_t size() const noexcept { return points_.size(); }

    // The arrays a search reads (points, then inner nodes), for an owner that wants to place them, e.g. on
    // huge pages: a search touches a few dozen cache lines scattered over them.
    [[nodiscard]] std::array<std::span<const std::byte>, 2> memory() const noexcept {
        return {std::as_bytes(std::span(points_)), std::as_bytes(std::span(nodes_))};
    }

  private:
    struct point {
        unit_vector v;
        std::uint32_t slot;
    };
    // Boxes around subtrees' points, rounded outwards to float (half the size of doubles, and a box only
    // has to bound), one coordinate array per bound and axis so a node's boxes are tested in one loop.
    static constexpr std::size_t fanout = 4;
    struct box {
        std::array<float, 3> low;
        std::array<float, 3> high;
    };
    // An inner node holds up to four children's boxes: the search is bound by cache misses, one per
    // node on the way down, and four children per node halve the depth of a binary tree. A child is
    // another node's index, or a leaf: leaf_bit | first point << count_bits | point count; an unused
    // child has an empty box (low > high), which no query comes near.
    struct alignas(128) node {
        std::array<std::array<float, fanout>, 3> low;
        std::array<std::array<float, fanout>, 3> high;
        std::array<std::uint32_t, fanout> children;
    };
    std::uint32_t build(std::uint32_t begin, std::uint32_t end, box& bounds);
    template <class Visit>
    void best_first(const unit_vector& q, double& bound_sq, Visit& visit) const;

    std::vector<point> points_;  // in tree order: each leaf's points are contiguous
    std::vector<node> nodes_;    // inner nodes
    box root_box_{};
    std::uint32_t root_ = 0;  // a node index or a leaf, as in node::children
};

}  // namespace storefront::core
