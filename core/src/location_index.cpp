// The bounding-box tree behind location search: unit vectors split at the median of their widest axis,
// four ranges per node, into leaves of a few points, searched best-first by the squared distance from the
// query to each box.

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

// Squared chords turned into kilometres.
void to_km(std::span<neighbour> found) {
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

// The gap between q and [low, high] on one axis: the same bits as "q < low ? low - q : (q > high ? q - high
// : 0)" (one term is exact and the other a non-positive number or zero clamped to 0), without branches that
// random queries mispredict. An empty range (low = +inf, high = -inf) is infinitely far.
inline double axis_gap(double q, double low, double high) noexcept {
    return std::max(low - q, 0.0) + std::max(q - high, 0.0);
}

// A lower bound on chord_sq(q, p) for every p in the box, in the same floating-point steps: each
// per-axis gap is at most |q - p| on that axis and rounding is monotone, so the computed bound never
// exceeds the computed chord, and pruning on "bound > limit" loses no point, ties included.
inline double sum_of_squares(double x, double y, double z) noexcept {
    return x * x + y * y + z * z;
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
        nodes_.reserve(points_.size() / leaf_size + 1);
        root_ = build(0, static_cast<std::uint32_t>(points_.size()), root_box_);
    }
}

namespace {

struct extent {
    unit_vector low;
    unit_vector high;
};

template <class Points>
extent extent_of(const Points& points, std::uint32_t begin, std::uint32_t end) {
    extent e{points[begin].v, points[begin].v};
    for (std::uint32_t i = begin + 1; i < end; ++i) {
        for (std::size_t a = 0; a < 3; ++a) {
            e.low[a] = std::min(e.low[a], points[i].v[a]);
            e.high[a] = std::max(e.high[a], points[i].v[a]);
        }
    }
    return e;
}

std::size_t widest_axis(const extent& e) noexcept {
    std::size_t axis = 0;
    for (std::size_t a = 1; a < 3; ++a) {
        if (e.high[a] - e.low[a] > e.high[axis] - e.low[axis]) {
            axis = a;
        }
    }
    return axis;
}

}  // namespace

std::uint32_t location_index::build(std::uint32_t begin, std::uint32_t end, box& bounds) {
    const extent e = extent_of(points_, begin, end);
    bounds = {
        {round_down(e.low[0]), round_down(e.low[1]), round_down(e.low[2])},
        {round_up(e.high[0]), round_up(e.high[1]), round_up(e.high[2])},
    };
    if (end - begin <= leaf_size) {
        return leaf_bit | begin << count_bits | (end - begin);
    }
    // Halve the largest range at the median of its widest axis until there are four (or every range fits
    // a leaf): two levels of a median-split binary tree in one node.
    struct range {
        std::uint32_t begin;
        std::uint32_t end;
    };
    std::array<range, fanout> parts{};
    parts[0] = {begin, end};
    std::size_t count = 1;
    while (count < fanout) {
        std::size_t largest = 0;
        for (std::size_t i = 1; i < count; ++i) {
            if (parts[i].end - parts[i].begin > parts[largest].end - parts[largest].begin) {
                largest = i;
            }
        }
        const range r = parts[largest];
        if (r.end - r.begin <= leaf_size) {
            break;
        }
        const std::size_t axis =
            widest_axis(r.begin == begin && r.end == end ? e : extent_of(points_, r.begin, r.end));
        const std::uint32_t mid = r.begin + (r.end - r.begin) / 2;
        std::nth_element(
            points_.begin() + r.begin,
            points_.begin() + mid,
            points_.begin() + r.end,
            [axis](const point& a, const point& b) { return a.v[axis] < b.v[axis]; }
        );
        std::copy_backward(
            parts.begin() + static_cast<std::ptrdiff_t>(largest) + 1,
            parts.begin() + static_cast<std::ptrdiff_t>(count),
            parts.begin() + static_cast<std::ptrdiff_t>(count) + 1
        );
        parts[largest] = {r.begin, mid};
        parts[largest + 1] = {mid, r.end};
        ++count;
    }
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    node n{};
    constexpr float inf = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < fanout; ++i) {
        box child{{inf, inf, inf}, {-inf, -inf, -inf}};  // empty: no point, infinitely far
        n.children[i] = i < count ? build(parts[i].begin, parts[i].end, child) : 0;
        for (std::size_t a = 0; a < 3; ++a) {
            n.low[a][i] = child.low[a];
            n.high[a][i] = child.high[a];
        }
    }
    nodes_[index] = n;
    return index;
}

// Visits leaves in order of their boxes' distance from q, skipping every box farther than `bound_sq`
// (which `visit` may shrink). Each step descends to the nearest child and queues the others, so the work
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
    double current_sq = sum_of_squares(
        axis_gap(q[0], root_box_.low[0], root_box_.high[0]),
        axis_gap(q[1], root_box_.low[1], root_box_.high[1]),
        axis_gap(q[2], root_box_.low[2], root_box_.high[2])
    );
    for (;;) {
        bool live = current_sq <= bound_sq;
        while (live && (current & leaf_bit) == 0) {
            const node& n = nodes_[current];
            std::array<double, fanout> sq{};
            for (std::size_t i = 0; i < fanout; ++i) {
                sq[i] = sum_of_squares(
                    axis_gap(q[0], n.low[0][i], n.high[0][i]),
                    axis_gap(q[1], n.low[1][i], n.high[1][i]),
                    axis_gap(q[2], n.low[2][i], n.high[2][i])
                );
            }
            std::size_t nearest = 0;
            for (std::size_t i = 1; i < fanout; ++i) {
                nearest = sq[i] < sq[nearest] ? i : nearest;
            }
            for (std::size_t i = 0; i < fanout; ++i) {
                if (i != nearest && sq[i] <= bound_sq) {
                    queue.push_back({sq[i], n.children[i]});
                    std::push_heap(queue.begin(), queue.end(), farther);
                }
            }
            live = sq[nearest] <= bound_sq;
            current = n.children[nearest];
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
    double bound_sq = *limit;  // the limit, then, once k are kept, the worst kept answer's
    std::size_t kept = 0;      // out[0, kept) is sorted by before(): k is small, so insertion beats a heap
    auto visit = [&](const point& p) {
        const double sq = chord_sq(q, p.v);
        if (sq > bound_sq) {
            return;  // ties with the worst kept answer go on to the slot order
        }
        const neighbour c{p.slot, sq};
        std::size_t i = kept;
        if (kept < k) {
            ++kept;
        } else if (before(c, out[k - 1])) {
            i = k - 1;  // the worst kept answer drops out
        } else {
            return;
        }
        for (; i > 0 && before(c, out[i - 1]); --i) {
            out[i] = out[i - 1];
        }
        out[i] = c;
        if (kept == k) {
            bound_sq = out[k - 1].distance_km;  // ties stay reachable: pruning needs a strict excess
        }
    };
    best_first(q, bound_sq, visit);
    to_km(out.first(kept));
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
    std::sort(found.begin(), found.end(), before);
    to_km(found);
    return found;
}

}  // namespace storefront::core
