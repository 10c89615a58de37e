#pragma once
// Serialised JSON of the immutable-between-revisions lists (products, categories, users): built once, then
// patched per storage revision with only the rows that revision changed; a page is a concatenation of
// prebuilt fragments, itself kept in a small cache of recent pages so a repeated page is shared bytes with
// no per-request copy, hashed and compressed at most once (and kept across revisions that did not touch
// it). Safe for concurrent readers. Invalidation contract: caches/data_revision.hpp.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/pagination.hpp"
#include "server/codec/representation.hpp"

namespace storefront::server {

// Process-wide counts of pages served from a cache, of full list rebuilds and of incremental patches, read
// by /metrics.
struct response_cache_counts {
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> rebuilds{0};
    std::atomic<std::uint64_t> patches{0};
};
[[nodiscard]] response_cache_counts& response_cache_counters();

// Items serialised, each with its id, in id order (ids unique).
struct serialised_items {
    std::vector<std::int64_t> ids;
    std::vector<std::string> json;
};

// What changed in a list since some revision: every changed id (created, updated or deleted; in id order,
// unique) and the JSON of those that exist at `revision`, in id order.
struct serialised_changes {
    std::uint64_t revision = 0;  // the source's revision these rows were read at (or after)
    std::vector<std::int64_t> changed;
    serialised_items present;
};

class fragment_list {
  public:
    // Recent pages per revision: a direct-mapped cache, so memory stays bounded (at most this many pages,
    // each at most max_page_limit items) whatever offsets clients ask for.
    static constexpr std::size_t page_slots = 64;
    // Items per chunk of a snapshot: a write copies the chunks it touches (and the chunk index), not the
    // list.
    static constexpr std::size_t chunk_items = 128;

    struct cached_page {
        cached_page(std::size_t first, std::size_t last, std::string json)
            : first(first), last(last), json(std::move(json)) {}
        std::size_t first = 0;  // the item range [first, last) this page holds
        std::size_t last = 0;
        prepared_body json;  // with its ETag and compressed forms, made once per page content
    };
    // A run of consecutive items, shared by every snapshot in which it did not change.
    struct chunk {
        std::vector<std::int64_t> ids;
        std::vector<std::string> json;
    };
    struct snapshot {
        std::uint64_t revision = 0;
        std::vector<std::shared_ptr<const chunk>> chunks;  // non-empty, in id order
        std::vector<std::size_t> ends;                     // items in chunks[0..k], for each k
        std::vector<std::int64_t> last_ids;                // the last id of chunks[k], for each k
        mutable std::mutex pages_mutex;                    // guards `pages` (held only to copy a pointer)
        mutable std::array<std::shared_ptr<const cached_page>, page_slots> pages;
        mutable std::mutex all_mutex;  // guards `all_items`, built on first use (not per write)
        mutable std::shared_ptr<const prepared_body> all_items;

        // How many items this revision holds.
        [[nodiscard]] std::size_t size() const { return ends.empty() ? 0 : ends.back(); }
        // The JSON of the item at `index` (< size()) in id order.
        [[nodiscard]] const std::string& at(std::size_t index) const;
        // A JSON array of the page's items of this revision, shared with other requests for the same page,
        // and so are its ETag and compressed forms: computed once per page content.
        [[nodiscard]] std::shared_ptr<const prepared_body> page(const core::page_request& page) const;
        // The whole list as one JSON array.
        [[nodiscard]] std::shared_ptr<const prepared_body> all() const;
        // The JSON of the item with `id` in this revision, or nullptr.
        [[nodiscard]] const std::string* item(std::int64_t id) const;
    };
    // Reads the rows changed since a revision, or nullopt when the source cannot tell (then `load` runs).
    using change_reader = std::function<std::optional<serialised_changes>(std::uint64_t since)>;

    // `revision` reports the source's revision; `load` serialises every item of that revision; `changes`
    // (may be empty: always `load`) serialises the rows changed since a revision.
    fragment_list(
        std::function<std::uint64_t()> revision,
        std::function<serialised_items()> load,
        change_reader changes = {}
    );

    // True when the next current() rebuilds (the source moved on, or nothing is loaded yet): callers whose
    // source blocks run that call off the I/O threads.
    [[nodiscard]] bool stale() const;

    // The current snapshot, patched (or rebuilt) first if the source moved on.
    [[nodiscard]] std::shared_ptr<const snapshot> current();
    // current(), except while another thread brings the list up to date: then returns at once. For a
    // write's refresh, which need not queue behind another's (the next reader patches what it missed).
    void refresh_unless_busy();
    // The snapshot if it is current, else nullptr (never rebuilds: callable where blocking is not allowed).
    [[nodiscard]] std::shared_ptr<const snapshot> current_if_loaded() const;
    // True once a snapshot is held, current or not (so current() patches it rather than loads everything).
    [[nodiscard]] bool loaded_once() const { return loaded() != nullptr; }

    // current()->page(page): one page of the current revision.
    [[nodiscard]] std::shared_ptr<const prepared_body> page(const core::page_request& page);
    [[nodiscard]] std::shared_ptr<const prepared_body> all();

    // Drops the snapshot so the next call rebuilds it (the serialisation itself changed, not the source).
    void reset();

    // Items this list has serialised (or received serialised) so far, by full loads and patches: what a
    // write costs, for tests.
    [[nodiscard]] std::uint64_t rows_serialised() const {
        return rows_serialised_.load(std::memory_order_relaxed);
    }

  private:
    std::function<std::uint64_t()> revision_;
    std::function<serialised_items()> load_;
    change_reader changes_;
    [[nodiscard]] std::shared_ptr<const snapshot> loaded() const;
    void publish(std::shared_ptr<const snapshot> fresh);
    // Under rebuild_: patches or reloads the snapshot unless it reached `revision` meanwhile.
    std::shared_ptr<const snapshot> bring_up_to(std::uint64_t revision);

    // A mutex, not std::atomic<std::shared_ptr>: libstdc++ 12's atomic load unlocks with relaxed order, a
    // data race by the memory model that ThreadSanitizer reports once snapshots are replaced under load.
    // The critical sections only copy a pointer.
    mutable std::mutex snapshot_mutex_;
    std::shared_ptr<const snapshot> snapshot_;
    std::mutex rebuild_;
    std::atomic<std::uint64_t> rows_serialised_{0};
};

}  // namespace storefront::server
