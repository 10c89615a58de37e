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
    // has to bound).
    static constexpr std::size_t fanout = 4;
    struct box {
        std::array<float, 3> low;
        std::array<float, 3> high;
    };
    // An inner node holds up to four children's boxes in one cache line: the search is bound by cache
    // misses, one per node on the way down, and four children per node halve the depth of a binary tree.
    // The node keeps its own box as a low corner and a step per axis; a child's box is stored as 8-bit
    // counts of steps from that corner, rounded outwards, so it may be up to a step larger than the
    // child's points but never smaller. A child is another node's index (never 0, the root's), or a leaf:
    // leaf_bit | first point << count_bits | point count; 0 marks an unused child.
    struct alignas(64) node {
        std::array<float, 3> low;
        std::array<float, 3> step;
        std::array<std::array<std::uint8_t, fanout>, 3> child_low;
        std::array<std::array<std::uint8_t, fanout>, 3> child_high;
        std::array<std::uint32_t, fanout> children;
    };
    static_assert(sizeof(node) == 64);
    std::uint32_t build(std::uint32_t begin, std::uint32_t end, box& bounds);
    template <class Visit>
    void best_first(const unit_vector& q, double& bound_sq, Visit& visit) const;

    std::vector<point> points_;  // in tree order: each leaf's points are contiguous
    std::vector<node> nodes_;    // inner nodes
    box root_box_{};
    std::uint32_t root_ = 0;  // a node index or a leaf, as in node::children
};

}  // namespace storefront::core
