#pragma once
// Serialised JSON of the immutable-between-revisions lists (products, categories, users): built once per
// storage revision, then a page is a concatenation of prebuilt fragments, itself kept in a small cache of
// recent pages so a repeated page is shared bytes with no per-request copy, hashed and compressed at most
// once. Safe for concurrent readers.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pagination.hpp"
#include "server/codec/representation.hpp"

namespace storefront::server {

// Process-wide counts of pages served from a cache and of list rebuilds, read by /metrics.
struct response_cache_counts {
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> rebuilds{0};
};
[[nodiscard]] response_cache_counts& response_cache_counters();

// One revision of a list, serialised: each item's JSON and its id, in id order.
struct serialised_items {
    std::vector<std::int64_t> ids;
    std::vector<std::string> json;
};

class fragment_list {
  public:
    // Recent pages per revision: a direct-mapped cache, so memory stays bounded (at most this many pages,
    // each at most max_page_limit items) whatever offsets clients ask for.
    static constexpr std::size_t page_slots = 64;

    struct cached_page {
        cached_page(std::size_t first, std::size_t last, std::string json)
            : first(first), last(last), json(std::move(json)) {}
        std::size_t first = 0;  // the item range [first, last) this page holds
        std::size_t last = 0;
        prepared_body json;  // with its ETag and compressed forms, made once per page and revision
    };
    struct snapshot {
        std::uint64_t revision = 0;
        std::vector<std::string> items;                  // one JSON value per item, in id order
        std::vector<std::int64_t> ids;                   // items[i] is the item with ids[i]
        std::shared_ptr<const prepared_body> all_items;  // the whole list as one JSON array
        mutable std::mutex pages_mutex;                  // guards `pages` (held only to copy a pointer)
        mutable std::array<std::shared_ptr<const cached_page>, page_slots> pages;

        // A JSON array of the page's items of this revision, shared with other requests for the same page,
        // and so are its ETag and compressed forms: computed once per page and revision.
        [[nodiscard]] std::shared_ptr<const prepared_body> page(const core::page_request& page) const;
        // The JSON of the item with `id` in this revision, or nullptr.
        [[nodiscard]] const std::string* item(std::int64_t id) const;
    };
    // `revision` reports the source's revision; `load` serialises every item of that revision.
    fragment_list(std::function<std::uint64_t()> revision, std::function<serialised_items()> load);

    // True when the next current() rebuilds (the source moved on, or nothing is loaded yet): callers whose
    // source blocks run that call off the I/O threads.
    [[nodiscard]] bool stale() const;

    // The current snapshot, rebuilt first if the source moved on.
    [[nodiscard]] std::shared_ptr<const snapshot> current();
    // The snapshot if it is current, else nullptr (never rebuilds: callable where blocking is not allowed).
    [[nodiscard]] std::shared_ptr<const snapshot> current_if_loaded() const;

    // current()->page(page): one page of the current revision.
    [[nodiscard]] std::shared_ptr<const prepared_body> page(const core::page_request& page);
    [[nodiscard]] std::shared_ptr<const prepared_body> all();

    // Drops the snapshot so the next call rebuilds it (the serialisation itself changed, not the source).
    void reset();

  private:
    std::function<std::uint64_t()> revision_;
    std::function<serialised_items()> load_;
    [[nodiscard]] std::shared_ptr<const snapshot> loaded() const;
    void publish(std::shared_ptr<const snapshot> fresh);

    // A mutex, not std::atomic<std::shared_ptr>: libstdc++ 12's atomic load unlocks with relaxed order, a
    // data race by the memory model that ThreadSanitizer reports once snapshots are replaced under load.
    // The critical sections only copy a pointer.
    mutable std::mutex snapshot_mutex_;
    std::shared_ptr<const snapshot> snapshot_;
    std::mutex rebuild_;
};

}  // namespace storefront::server
