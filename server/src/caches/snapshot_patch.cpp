// snapshot_of and patched: the chunked item store of a fragment_list snapshot, and the merge that applies
// one revision's changed rows to it while keeping the pages they did not affect.

#include "snapshot_patch.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

namespace storefront::server::detail {

namespace {

using chunk = fragment_list::chunk;
using snapshot = fragment_list::snapshot;
constexpr std::size_t chunk_items = fragment_list::chunk_items;
constexpr std::size_t no_shift = std::numeric_limits<std::size_t>::max();
// Rows created past the last chunk's last id join that chunk while it holds fewer than this, else start a
// chunk of their own: a create copies at most this many rows, not a whole chunk (a chunk is shared with
// the snapshot readers hold, so changing one copies it).
constexpr std::size_t tail_merge_limit = chunk_items / 4;

// Appends `items` (a chunk, or serialised_items: ids and their JSON alike) cut in chunk_items pieces, its
// JSON moved out.
template <class Items>
void cut_into_chunks(std::vector<std::shared_ptr<const chunk>>& to, Items& items) {
    const std::size_t n = items.ids.size();
    for (std::size_t first = 0; first < n; first += chunk_items) {
        const std::size_t last = std::min(n, first + chunk_items);
        chunk piece;
        piece.ids.assign(items.ids.begin() + first, items.ids.begin() + last);
        piece.json.assign(
            std::make_move_iterator(items.json.begin() + first),
            std::make_move_iterator(items.json.begin() + last)
        );
        to.push_back(std::make_shared<const chunk>(std::move(piece)));
    }
}

// Appends `items` as chunks: whole when small enough, else cut in chunk_items pieces (a chunk grows past
// twice that only through inserts, and is cut back here). An empty run adds nothing.
void append_chunks(std::vector<std::shared_ptr<const chunk>>& to, chunk items) {
    const std::size_t n = items.ids.size();
    if (n == 0) {
        return;
    }
    if (n <= 2 * chunk_items) {
        to.push_back(std::make_shared<const chunk>(std::move(items)));
        return;
    }
    cut_into_chunks(to, items);
}

// Fills the chunk index (ends, last_ids) from the chunks.
void index_chunks(snapshot& s) {
    s.ends.reserve(s.chunks.size());
    s.last_ids.reserve(s.chunks.size());
    std::size_t end = 0;
    for (const auto& c : s.chunks) {
        end += c->ids.size();
        s.ends.push_back(end);
        s.last_ids.push_back(c->ids.back());
    }
}

}  // namespace

std::shared_ptr<snapshot> snapshot_of(std::uint64_t revision, serialised_items items) {
    auto fresh = std::make_shared<snapshot>();
    fresh->revision = revision;
    cut_into_chunks(fresh->chunks, items);
    index_chunks(*fresh);
    return fresh;
}

std::shared_ptr<snapshot> patched(const snapshot& before, serialised_changes changes) {
    auto next = std::make_shared<snapshot>();
    next->revision = changes.revision;
    const auto& changed = changes.changed;
    auto& present = changes.present;
    std::size_t c = 0;  // next changed id
    std::size_t p = 0;  // next present row
    // Old positions whose item was replaced in place, and the first old position from which items moved
    // (an insert or a delete there): the pages these touch are rebuilt, the others kept.
    std::vector<std::size_t> updated;
    std::size_t first_shift = no_shift;
    const std::size_t chunks = before.chunks.size();
    const bool tail_apart = chunks > 0 && before.chunks.back()->ids.size() >= tail_merge_limit;
    next->chunks.reserve(chunks + 1);
    for (std::size_t k = 0; k < chunks; ++k) {
        // The changed ids this chunk covers: up to its last id, and every later one for a small last chunk.
        const std::size_t c_end =
            k + 1 == chunks && !tail_apart
                ? changed.size()
                : static_cast<std::size_t>(
                      std::upper_bound(changed.begin() + c, changed.end(), before.last_ids[k]) -
                      changed.begin()
                  );
        if (c_end == c) {
            next->chunks.push_back(before.chunks[k]);
            continue;
        }
        const chunk& old = *before.chunks[k];
        const std::size_t base = k == 0 ? 0 : before.ends[k - 1];
        chunk merged;
        merged.ids.reserve(old.ids.size() + (c_end - c));
        merged.json.reserve(old.ids.size() + (c_end - c));
        std::size_t i = 0;
        const auto keep_old = [&] {
            merged.ids.push_back(old.ids[i]);
            merged.json.push_back(old.json[i]);
            ++i;
        };
        for (; c < c_end; ++c) {
            const std::int64_t id = changed[c];
            while (i < old.ids.size() && old.ids[i] < id) {
                keep_old();
            }
            const bool existed = i < old.ids.size() && old.ids[i] == id;
            const bool exists = p < present.ids.size() && present.ids[p] == id;
            if (exists) {
                merged.ids.push_back(id);
                merged.json.push_back(std::move(present.json[p]));
                ++p;
            }
            if (existed && exists) {
                updated.push_back(base + i);
            } else if (existed != exists) {
                first_shift = std::min(first_shift, base + i);
            }
            i += existed ? 1 : 0;
        }
        while (i < old.ids.size()) {
            keep_old();
        }
        append_chunks(next->chunks, std::move(merged));
    }
    if (tail_apart && c < changed.size()) {
        // Ids past every old one: the rows created there, in a chunk of their own.
        chunk created;
        for (; c < changed.size(); ++c) {
            if (p < present.ids.size() && present.ids[p] == changed[c]) {
                created.ids.push_back(changed[c]);
                created.json.push_back(std::move(present.json[p]));
                ++p;
                first_shift = std::min(first_shift, before.ends.back());
            }
        }
        append_chunks(next->chunks, std::move(created));
    }
    if (chunks == 0) {  // nothing before: every present row is new
        chunk all;
        all.ids = std::move(present.ids);
        all.json = std::move(present.json);
        first_shift = all.ids.empty() ? no_shift : 0;
        append_chunks(next->chunks, std::move(all));
    }
    index_chunks(*next);

    const auto untouched = [&](std::size_t first, std::size_t last) {
        if (first_shift != no_shift && last > first_shift) {
            return false;
        }
        const auto u = std::lower_bound(updated.begin(), updated.end(), first);
        return u == updated.end() || *u >= last;
    };
    {
        std::lock_guard lock(before.pages_mutex);
        for (std::size_t slot = 0; slot < fragment_list::page_slots; ++slot) {
            const auto& page = before.pages[slot];
            if (page && untouched(page->first, page->last)) {
                next->pages[slot] = page;
            }
        }
    }
    if (updated.empty() && first_shift == no_shift) {
        std::lock_guard lock(before.all_mutex);
        next->all_items = before.all_items;  // nothing changed: the same bytes (or still none)
    }
    return next;
}

}  // namespace storefront::server::detail
