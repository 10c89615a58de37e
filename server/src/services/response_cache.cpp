// Per-revision cache of serialised list items; pages are concatenations of prebuilt fragments, and recent
// pages are kept whole (with their ETag and compressed forms) in a direct-mapped cache owned by the
// revision's snapshot.

#include "server/services/response_cache.hpp"

#include <algorithm>

namespace storefront::server {

response_cache_counts& response_cache_counters() {
    static response_cache_counts counts;
    return counts;
}

fragment_list::fragment_list(std::function<std::uint64_t()> revision, std::function<serialised_items()> load)
    : revision_(std::move(revision)), load_(std::move(load)) {}

std::shared_ptr<const fragment_list::snapshot> fragment_list::loaded() const {
    std::lock_guard lock(snapshot_mutex_);
    return snapshot_;
}

void fragment_list::publish(std::shared_ptr<const snapshot> fresh) {
    std::lock_guard lock(snapshot_mutex_);
    snapshot_ = std::move(fresh);
}

void fragment_list::reset() {
    publish(nullptr);
}

bool fragment_list::stale() const {
    const auto snap = loaded();
    return !snap || snap->revision != revision_();
}

std::shared_ptr<const fragment_list::snapshot> fragment_list::current_if_loaded() const {
    auto snap = loaded();
    if (!snap || snap->revision != revision_()) {
        return nullptr;
    }
    response_cache_counters().hits.fetch_add(1, std::memory_order_relaxed);
    return snap;
}

std::shared_ptr<const fragment_list::snapshot> fragment_list::current() {
    auto snap = loaded();
    const std::uint64_t revision = revision_();
    if (snap && snap->revision == revision) {
        response_cache_counters().hits.fetch_add(1, std::memory_order_relaxed);
        return snap;
    }
    std::lock_guard lock(rebuild_);
    snap = loaded();
    if (snap && snap->revision == revision) {
        return snap;  // another thread rebuilt it while we waited
    }
    auto fresh = std::make_shared<snapshot>();
    response_cache_counters().rebuilds.fetch_add(1, std::memory_order_relaxed);
    fresh->revision = revision;
    serialised_items loaded = load_();
    fresh->items = std::move(loaded.json);
    fresh->ids = std::move(loaded.ids);
    std::string all = "[";
    for (const auto& item : fresh->items) {
        if (all.size() > 1) {
            all += ',';
        }
        all += item;
    }
    all += ']';
    fresh->all_items = std::make_shared<const prepared_body>(std::move(all));
    publish(fresh);
    return fresh;
}

std::shared_ptr<const prepared_body> fragment_list::snapshot::page(const core::page_request& page) const {
    const auto range = core::page_slice(page, items.size());
    // Keyed by the item range, so every offset past the end shares the one empty page.
    const std::size_t slot = (range.first * 131 + range.last) % page_slots;
    std::shared_ptr<const cached_page> cached;
    {
        std::lock_guard lock(pages_mutex);
        cached = pages[slot];
    }
    if (!cached || cached->first != range.first || cached->last != range.last) {
        std::size_t bytes = 2;
        for (std::size_t i = range.first; i < range.last; ++i) {
            bytes += items[i].size() + 1;
        }
        std::string out;
        out.reserve(bytes);
        out += '[';
        for (std::size_t i = range.first; i < range.last; ++i) {
            if (i != range.first) {
                out += ',';
            }
            out += items[i];
        }
        out += ']';
        cached = std::make_shared<const cached_page>(range.first, range.last, std::move(out));
        std::lock_guard lock(pages_mutex);
        pages[slot] = cached;  // a racing writer of another page simply wins
    }
    // Aliasing: the bytes keep their cache entry (and nothing else) alive.
    return {cached, &cached->json};
}

const std::string* fragment_list::snapshot::item(std::int64_t id) const {
    const auto at = std::lower_bound(ids.begin(), ids.end(), id);
    if (at == ids.end() || *at != id) {
        return nullptr;
    }
    return &items[static_cast<std::size_t>(at - ids.begin())];
}

std::shared_ptr<const prepared_body> fragment_list::page(const core::page_request& page) {
    return current()->page(page);
}

std::shared_ptr<const prepared_body> fragment_list::all() {
    return current()->all_items;
}

}  // namespace storefront::server
