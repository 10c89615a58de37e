// The bounding-box tree behind location search: unit vectors split at the median of their widest axis
// into leaves of a few points, searched best-first by the squared distance from the query to each box.

#include "core/location_index.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace storefront::core {
namespace {

// Points per leaf: a leaf's points fill a few cache lines, and fewer levels mean fewer boxes to test.
constexpr std::uint32_t leaf_size = 8;

// core::squared_chord, visible to the compiler here so the search loop inlines it (the same arithmetic,
// so the same bits as the brute-force checks get).
inline double chord_sq(const unit_vector& a, const unit_vector& b) noexcept {
    const double dx = a[0] - b[0];
    const double dy = a[1] - b[1];
    const double dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

// Ordered by (squared chord, slot): the order answers come in. The heap of kept answers lives in the
// caller's neighbour array, whose distance_km holds the squared chord until the search ends.
inline bool before(const neighbour& a, const neighbour& b) noexcept {
    return a.distance_km < b.distance_km || (a.distance_km == b.distance_km && a.slot < b.slot);
}

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

// Sorted answers with squared chords turned into kilometres.
void finish(std::span<neighbour> found) {
    std::sort(found.begin(), found.end(), before);
    for (neighbour& n : found) {
        n.distance_km = km_for_chord(std::sqrt(n.distance_km));
    }
}

float round_down(double x) noexcept {
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) > x ? std::nextafter(f, -2.0F) : f;
}

float round_up(double x) noexcept {
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) < x ? std::nextafter(f, 2.0F) : f;
}

// Child references (see location_index::node): a leaf's first point and count packed under the top bit.
constexpr std::uint32_t leaf_bit = 1U << 31;
constexpr std::uint32_t count_bits = 4;
constexpr std::uint32_t count_mask = (1U << count_bits) - 1;
constexpr std::size_t max_points = std::size_t{1} << (31 - count_bits);
static_assert(leaf_size <= count_mask);

// A lower bound on chord_sq(q, p) for every p in the box, in the same floating-point steps: each
// per-axis gap is at most |q - p| on that axis and rounding is monotone, so the computed bound never
// exceeds the computed chord, and pruning on "bound > limit" loses no point, ties included.
template <class Box>
inline double box_distance_sq(const Box& b, const unit_vector& q) noexcept {
    std::array<double, 3> gap{};
    for (std::size_t a = 0; a < 3; ++a) {
        const double low = b.low[a];
        const double high = b.high[a];
        gap[a] = q[a] < low ? low - q[a] : (q[a] > high ? q[a] - high : 0.0);
    }
    return gap[0] * gap[0] + gap[1] * gap[1] + gap[2] * gap[2];
}

}  // namespace

location_index::location_index(const std::vector<indexed_point>& points) {
    if (points.size() > max_points) {
        throw std::length_error("too many points for location_index");
    }
    points_.reserve(points.size());
    for (const indexed_point& p : points) {
        points_.push_back({to_unit_vector(p.position), p.slot});
    }
    if (!points_.empty()) {
        nodes_.reserve(points_.size() / (leaf_size / 2) + 1);
        root_ = build(0, static_cast<std::uint32_t>(points_.size()), root_box_);
    }
}

std::uint32_t location_index::build(std::uint32_t begin, std::uint32_t end, box& bounds) {
    unit_vector low = points_[begin].v;
    unit_vector high = points_[begin].v;
    for (std::uint32_t i = begin + 1; i < end; ++i) {
        for (std::size_t a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], points_[i].v[a]);
            high[a] = std::max(high[a], points_[i].v[a]);
        }
    }
    bounds = {
        {round_down(low[0]), round_down(low[1]), round_down(low[2])},
        {round_up(high[0]), round_up(high[1]), round_up(high[2])},
    };
    if (end - begin <= leaf_size) {
        return leaf_bit | begin << count_bits | (end - begin);
    }
    std::size_t axis = 0;
    for (std::size_t a = 1; a < 3; ++a) {
        if (high[a] - low[a] > high[axis] - low[axis]) {
            axis = a;
        }
    }
    const std::uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(
        points_.begin() + begin,
        points_.begin() + mid,
        points_.begin() + end,
        [axis](const point& a, const point& b) { return a.v[axis] < b.v[axis]; }
    );
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    node n{};
    n.children[0] = build(begin, mid, n.boxes[0]);
    n.children[1] = build(mid, end, n.boxes[1]);
    nodes_[index] = n;
    return index;
}

// Visits leaves in order of their boxes' distance from q, skipping every box farther than `bound_sq`
// (which `visit` may shrink). Each step descends to the nearer child and queues the other, so the work
// follows the boxes near the answer wherever q is, not the split planes on the way to it.
template <class Visit>
void location_index::best_first(const unit_vector& q, double& bound_sq, Visit& visit) const {
    struct entry {
        double distance_sq;
        std::uint32_t child;
    };
    const auto farther = [](const entry& a, const entry& b) { return a.distance_sq > b.distance_sq; };
    // Reused per thread, so a search allocates only while this grows to its working size.
    thread_local std::vector<entry> queue;
    queue.clear();
    std::uint32_t current = root_;
    double current_sq = box_distance_sq(root_box_, q);
    for (;;) {
        bool live = current_sq <= bound_sq;
        while (live && (current & leaf_bit) == 0) {
            const node& n = nodes_[current];
            double near_sq = box_distance_sq(n.boxes[0], q);
            double far_sq = box_distance_sq(n.boxes[1], q);
            std::uint32_t near = n.children[0];
            std::uint32_t far = n.children[1];
            if (far_sq < near_sq) {
                std::swap(near, far);
                std::swap(near_sq, far_sq);
            }
            if (far_sq <= bound_sq) {
                queue.push_back({far_sq, far});
                std::push_heap(queue.begin(), queue.end(), farther);
            }
            live = near_sq <= bound_sq;
            current = near;
        }
        if (live) {
            const std::uint32_t first = (current & ~leaf_bit) >> count_bits;
            const std::uint32_t last = first + (current & count_mask);
            for (std::uint32_t i = first; i < last; ++i) {
                visit(points_[i]);
            }
        }
        if (queue.empty()) {
            return;
        }
        std::pop_heap(queue.begin(), queue.end(), farther);
        const entry next = queue.back();
        queue.pop_back();
        if (next.distance_sq > bound_sq) {
            return;  // every queued box is at least this far
        }
        current = next.child;
        current_sq = next.distance_sq;
    }
}

std::size_t location_index::nearest(const geo_point& origin, double max_km, std::span<neighbour> out) const {
    const auto limit = radius_bound_sq(max_km);
    if (out.empty() || points_.empty() || !limit) {
        return 0;
    }
    const unit_vector q = to_unit_vector(origin);
    const std::size_t k = out.size();
    double bound_sq = *limit;
    std::size_t kept = 0;  // out[0, kept) is a max-heap by before(): the worst kept answer on top
    auto visit = [&](const point& p) {
        const neighbour c{p.slot, chord_sq(q, p.v)};
        if (c.distance_km > *limit) {
            return;
        }
        if (kept < k) {
            out[kept++] = c;
            std::push_heap(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(kept), before);
        } else if (before(c, out[0])) {
            std::pop_heap(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(kept), before);
            out[kept - 1] = c;
            std::push_heap(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(kept), before);
        } else {
            return;
        }
        if (kept == k) {
            bound_sq = out[0].distance_km;  // ties stay reachable: pruning needs a strict excess
        }
    };
    best_first(q, bound_sq, visit);
    finish(out.first(kept));
    return kept;
}

std::vector<neighbour> location_index::nearest(const geo_point& origin, std::size_t k, double max_km) const {
    std::vector<neighbour> out(std::min(k, points_.size()));
    out.resize(nearest(origin, max_km, out));
    return out;
}

std::vector<neighbour> location_index::within(const geo_point& origin, double radius_km) const {
    const auto limit = radius_bound_sq(radius_km);
    if (points_.empty() || !limit) {
        return {};
    }
    const unit_vector q = to_unit_vector(origin);
    double bound_sq = *limit;
    std::vector<neighbour> found;
    auto visit = [&](const point& p) {
        const double sq = chord_sq(q, p.v);
        if (sq <= bound_sq) {
            found.push_back({p.slot, sq});
        }
    };
    best_first(q, bound_sq, visit);
    finish(found);
    return found;
}

}  // namespace storefront::core
