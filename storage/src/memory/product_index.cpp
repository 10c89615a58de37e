// product_index: posting lists of ids per title trigram and per category, and products ordered by price;
// a filter takes the smallest of the candidate sets its conditions give, and the caller checks each.

#include "memory/product_index.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace storefront::storage::detail {

namespace {

char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The distinct trigrams of `text`'s ASCII-lowered bytes: a title containing a pattern (ASCII letters
// folded, other bytes exact, as core::matches compares) contains every trigram of the pattern.
std::vector<std::uint32_t> trigrams_of(const std::string& text) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i + 3 <= text.size(); ++i) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(ascii_lower(text[i + k])); };
        out.push_back(std::uint32_t{byte(0)} << 16 | std::uint32_t{byte(1)} << 8 | byte(2));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void insert_sorted(std::vector<std::int64_t>& ids, std::int64_t id) {
    ids.insert(std::lower_bound(ids.begin(), ids.end(), id), id);
}

void erase_sorted(std::vector<std::int64_t>& ids, std::int64_t id) {
    const auto found = std::lower_bound(ids.begin(), ids.end(), id);
    if (found != ids.end() && *found == id) {
        ids.erase(found);
    }
}

// The widest gap between a price and a bound that still passes (core::matches' cent), with slack.
constexpr double slack = 0.01;

}  // namespace

void product_index::add(const core::product& p) {
    for (const std::uint32_t t : trigrams_of(p.title)) {
        insert_sorted(trigrams_[t], p.id);
    }
    insert_sorted(categories_[p.product_category.id], p.id);
    prices_.emplace(p.price, p.id);
}

void product_index::remove(const core::product& p) {
    for (const std::uint32_t t : trigrams_of(p.title)) {
        const auto found = trigrams_.find(t);
        if (found != trigrams_.end()) {
            erase_sorted(found->second, p.id);
            if (found->second.empty()) {
                trigrams_.erase(found);
            }
        }
    }
    if (const auto found = categories_.find(p.product_category.id); found != categories_.end()) {
        erase_sorted(found->second, p.id);
    }
    prices_.erase({p.price, p.id});
}

const product_index::ids* product_index::rarest_trigram(const std::string& title, bool& none) const {
    const ids* best = nullptr;
    for (const std::uint32_t t : trigrams_of(title)) {
        const auto found = trigrams_.find(t);
        if (found == trigrams_.end()) {
            none = true;
            return nullptr;
        }
        if (best == nullptr || found->second.size() < best->size()) {
            best = &found->second;
        }
    }
    return best;
}

std::optional<std::vector<std::int64_t>> product_index::candidates(
    const core::product_filter& filter, std::optional<std::int64_t> category
) const {
    const ids* best = nullptr;
    if (filter.title && filter.title->size() >= 3) {
        bool none = false;
        best = rarest_trigram(*filter.title, none);
        if (none) {
            return ids{};
        }
    }
    if (category) {
        const auto found = categories_.find(*category);
        if (found == categories_.end()) {
            return ids{};
        }
        if (best == nullptr || found->second.size() < best->size()) {
            best = &found->second;
        }
    }
    const bool priced = filter.price || filter.price_min || filter.price_max;
    if (priced) {
        double low = -std::numeric_limits<double>::infinity();
        double high = std::numeric_limits<double>::infinity();
        if (filter.price) {
            low = *filter.price - slack;
            high = *filter.price + slack;
        }
        if (filter.price_min) {
            low = std::max(low, *filter.price_min - slack);
        }
        if (filter.price_max) {
            high = std::min(high, *filter.price_max + slack);
        }
        // Walk the price range while it stays smaller than the best set so far.
        const std::size_t bound = best == nullptr ? std::numeric_limits<std::size_t>::max() : best->size();
        ids in_range;
        bool smaller = true;
        for (auto it = prices_.lower_bound({low, std::numeric_limits<std::int64_t>::min()});
             it != prices_.end() && it->first <= high;
             ++it) {
            if (in_range.size() >= bound) {
                smaller = false;
                break;
            }
            in_range.push_back(it->second);
        }
        if (smaller) {
            std::sort(in_range.begin(), in_range.end());
            return in_range;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return *best;
}

}  // namespace storefront::storage::detail
