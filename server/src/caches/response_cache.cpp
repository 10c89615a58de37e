// Per-revision snapshots of serialised list items: the current one, patched with the rows each revision
// changed (or rebuilt when the source cannot say which); pages are concatenations of prebuilt fragments,
// and recent pages are kept whole (with their ETag and compressed forms) in a direct-mapped cache.

#include "server/caches/response_cache.hpp"

#include <algorithm>

#include "snapshot_patch.hpp"

namespace storefront::server {

response_cache_counts& response_cache_counters() {
    static response_cache_counts counts;
    return counts;
}

fragment_list::fragment_list(
    std::function<std::uint64_t()> revision, std::function<serialised_items()> load, change_reader changes
)
    : revision_(std::move(revision)), load_(std::move(load)), changes_(std::move(changes)) {}

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
    return !snap || snap->revision < revision_();
}

std::shared_ptr<const fragment_list::snapshot> fragment_list::current_if_loaded() const {
    auto snap = loaded();
    if (!snap || snap->revision < revision_()) {
        return nullptr;
    }
    response_cache_counters().hits.fetch_add(1, std::memory_order_relaxed);
    return snap;
}

std::shared_ptr<const fragment_list::snapshot> fragment_list::current() {
    auto snap = loaded();
    const std::uint64_t revision = revision_();
    if (snap && snap->revision >= revision) {
        response_cache_counters().hits.fetch_add(1, std::memory_order_relaxed);
        return snap;
    }
    std::lock_guard lock(rebuild_);
    return bring_up_to(revision);
}

void fragment_list::refresh_unless_busy() {
    const auto snap = loaded();
    const std::uint64_t revision = revision_();
    if (snap && snap->revision >= revision) {
        return;
    }
    std::unique_lock lock(rebuild_, std::try_to_lock);
    if (lock.owns_lock()) {
        (void)bring_up_to(revision);
    }
}

std::shared_ptr<const fragment_list::snapshot> fragment_list::bring_up_to(std::uint64_t revision) {
    auto snap = loaded();
    if (snap && snap->revision >= revision) {
        return snap;  // another thread brought it up to date while we waited
    }
    std::shared_ptr<const snapshot> fresh;
    if (snap && changes_) {
        // Labelled with the revision the changes were read at, before their rows (caches/data_revision.hpp).
        if (auto changes = changes_(snap->revision)) {
            rows_serialised_.fetch_add(changes->present.ids.size(), std::memory_order_relaxed);
            response_cache_counters().patches.fetch_add(1, std::memory_order_relaxed);
            fresh = detail::patched(*snap, std::move(*changes));
        }
    }
    if (!fresh) {
        response_cache_counters().rebuilds.fetch_add(1, std::memory_order_relaxed);
        serialised_items items = load_();
        rows_serialised_.fetch_add(items.ids.size(), std::memory_order_relaxed);
        fresh = detail::snapshot_of(revision, std::move(items));
    }
    publish(fresh);
    return fresh;
}

const std::string& fragment_list::snapshot::at(std::size_t index) const {
    const auto k = static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), index) - ends.begin());
    return chunks[k]->json[index - (k == 0 ? 0 : ends[k - 1])];
}

std::shared_ptr<const prepared_body> fragment_list::snapshot::page(const core::page_request& page) const {
    const auto range = core::page_slice(page, size());
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
            bytes += at(i).size() + 1;
        }
        std::string out;
        out.reserve(bytes);
        out += '[';
        for (std::size_t i = range.first; i < range.last; ++i) {
            if (i != range.first) {
                out += ',';
            }
            out += at(i);
        }
        out += ']';
        cached = std::make_shared<const cached_page>(range.first, range.last, std::move(out));
        std::lock_guard lock(pages_mutex);
        pages[slot] = cached;  // a racing writer of another page simply wins
    }
    // Aliasing: the bytes keep their cache entry (and nothing else) alive.
    return {cached, &cached->json};
}

std::shared_ptr<const prepared_body> fragment_list::snapshot::all() const {
    std::lock_guard lock(all_mutex);
    if (!all_items) {
        std::string out = "[";
        for (const auto& c : chunks) {
            for (const auto& item : c->json) {
                if (out.size() > 1) {
                    out += ',';
                }
                out += item;
            }
        }
        out += ']';
        all_items = std::make_shared<const prepared_body>(std::move(out));
    }
    return all_items;
}

const std::string* fragment_list::snapshot::item(std::int64_t id) const {
    const auto k = std::lower_bound(last_ids.begin(), last_ids.end(), id);
    if (k == last_ids.end()) {
        return nullptr;
    }
    const chunk& c = *chunks[static_cast<std::size_t>(k - last_ids.begin())];
    const auto at = std::lower_bound(c.ids.begin(), c.ids.end(), id);
    if (at == c.ids.end() || *at != id) {
        return nullptr;
    }
    return &c.json[static_cast<std::size_t>(at - c.ids.begin())];
}

std::shared_ptr<const prepared_body> fragment_list::page(const core::page_request& page) {
    return current()->page(page);
}

std::shared_ptr<const prepared_body> fragment_list::all() {
    return current()->all();
}

}  // namespace storefront::server
