// The implicit k-d tree behind location search: unit vectors split on their widest axis, searched with
// squared chord lengths (which order exactly like great-circle distance) and plane-distance pruning.

#include "core/location_index.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace storefront::core {
namespace {

// core::squared_chord, visible to the compiler here so the search loop inlines it (the same arithmetic,
// so the same bits as the brute-force checks get).
inline double chord_sq(const unit_vector& a, const unit_vector& b) noexcept {
    const double dx = a[0] - b[0];
    const double dy = a[1] - b[1];
    const double dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

struct candidate {
    double squared_chord;
    std::uint32_t slot;

    friend bool operator<(const candidate& a, const candidate& b) noexcept {
        return a.squared_chord < b.squared_chord || (a.squared_chord == b.squared_chord && a.slot < b.slot);
    }
};

// Radius test in squared-chord space with a slack of one part per billion plus 1e-20 (a chord of 1e-10,
// about 0.6 mm). Rounding in to_unit_vector/squared_chord is far below that, so a point whose
// great_circle_km equals the radius is reliably inside, and a radius of half the circumference or more
// (chord 2) covers the whole sphere, antipodes included. nullopt for a negative or NaN radius.
std::optional<double> radius_bound_sq(double km) noexcept {
    if (!(km >= 0)) {
        return std::nullopt;
    }
    const double chord = chord_for_km(km);
    return chord * chord * (1 + 1e-9) + 1e-20;
}

std::vector<neighbour> to_neighbours(std::vector<candidate>& found) {
    std::sort(found.begin(), found.end());
    std::vector<neighbour> out;
    out.reserve(found.size());
    for (const candidate& c : found) {
        out.push_back({c.slot, km_for_chord(std::sqrt(c.squared_chord))});
    }
    return out;
}

}  // namespace

location_index::location_index(const std::vector<indexed_point>& points) {
    nodes_.reserve(points.size());
    for (const indexed_point& p : points) {
        nodes_.push_back({to_unit_vector(p.position), p.slot, 0});
    }
    build(0, nodes_.size(), 0);
}

void location_index::build(std::size_t first, std::size_t last, int depth) {
    if (last - first <= 1) {
        return;
    }
    unit_vector low = nodes_[first].v;
    unit_vector high = nodes_[first].v;
    for (std::size_t i = first + 1; i < last; ++i) {
        for (std::size_t a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], nodes_[i].v[a]);
            high[a] = std::max(high[a], nodes_[i].v[a]);
        }
    }
    std::uint8_t axis = 0;
    for (std::uint8_t a = 1; a < 3; ++a) {
        if (high[a] - low[a] > high[axis] - low[axis]) {
            axis = a;
        }
    }
    const std::size_t mid = first + (last - first) / 2;
    std::nth_element(
        nodes_.begin() + static_cast<std::ptrdiff_t>(first),
        nodes_.begin() + static_cast<std::ptrdiff_t>(mid),
        nodes_.begin() + static_cast<std::ptrdiff_t>(last),
        [axis](const node& a, const node& b) { return a.v[axis] < b.v[axis]; }
    );
    nodes_[mid].axis = axis;
    build(first, mid, depth + 1);
    build(mid + 1, last, depth + 1);
}

// Visits every node whose subtree may hold a point within `bound_sq` (which `visit` may shrink). A point
// across the splitting plane is at least the plane distance away, and the float comparison is safe
// because squared_chord sums that same squared difference with other non-negative terms.
template <class Visit>
void location_index::search(
    const unit_vector& q, std::size_t first, std::size_t last, double& bound_sq, Visit& visit
) const {
    while (first < last) {
        const std::size_t mid = first + (last - first) / 2;
        const node& n = nodes_[mid];
        visit(n);
        if (last - first == 1) {
            return;
        }
        const double diff = q[n.axis] - n.v[n.axis];
        if (diff < 0) {
            search(q, first, mid, bound_sq, visit);
            if (diff * diff > bound_sq) {
                return;
            }
            first = mid + 1;
        } else {
            search(q, mid + 1, last, bound_sq, visit);
            if (diff * diff > bound_sq) {
                return;
            }
            last = mid;
        }
    }
}

std::vector<neighbour> location_index::nearest(const geo_point& origin, std::size_t k, double max_km) const {
    const auto limit = radius_bound_sq(max_km);
    if (k == 0 || nodes_.empty() || !limit) {
        return {};
    }
    const unit_vector q = to_unit_vector(origin);
    double bound_sq = *limit;
    std::vector<candidate> heap;  // max-heap on (squared chord, slot): the worst kept answer on top
    heap.reserve(std::min(k, nodes_.size()));
    auto visit = [&](const node& n) {
        const candidate c{chord_sq(q, n.v), n.slot};
        if (c.squared_chord > *limit) {
            return;
        }
        if (heap.size() < k) {
            heap.push_back(c);
            std::push_heap(heap.begin(), heap.end());
        } else if (c < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = c;
            std::push_heap(heap.begin(), heap.end());
        } else {
            return;
        }
        if (heap.size() == k) {
            bound_sq = heap.front().squared_chord;  // ties stay reachable: pruning needs a strict excess
        }
    };
    search(q, 0, nodes_.size(), bound_sq, visit);
    return to_neighbours(heap);
}

std::vector<neighbour> location_index::within(const geo_point& origin, double radius_km) const {
    const auto limit = radius_bound_sq(radius_km);
    if (nodes_.empty() || !limit) {
        return {};
    }
    const unit_vector q = to_unit_vector(origin);
    double bound_sq = *limit;
    std::vector<candidate> found;
    auto visit = [&](const node& n) {
        const double sq = chord_sq(q, n.v);
        if (sq <= bound_sq) {
            found.push_back({sq, n.slot});
        }
    };
    search(q, 0, nodes_.size(), bound_sq, visit);
    return to_neighbours(found);
}

}  // namespace storefront::core
