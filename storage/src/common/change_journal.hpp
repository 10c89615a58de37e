#pragma once
// A store's revision and a bounded record of which rows each recent revision changed, so caches can ask
// what moved since the revision they hold (catalogue_store::changes_since) instead of rereading everything.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

#include "core/errc.hpp"
#include "core/row_changes.hpp"

namespace storefront::storage::detail {

class change_journal {
  public:
    // Revisions remembered: a cache further behind than this rereads everything (as after a reset).
    static constexpr std::size_t capacity = 4096;

    [[nodiscard]] std::uint64_t revision() const { return revision_.load(std::memory_order_acquire); }

    // After a committed write of row `id` of `table`: a new revision that names it. Call once the change
    // is visible to readers, so a cache built before it has an older revision.
    void record(core::row_table table, std::int64_t id);
    // After a change whose rows are unknown (a reset to the seed, notifications that may be lost): a new
    // revision that changes_since cannot see past.
    void record_unknown();

    // The rows changed after revision `since` up to the current one; errc::not_found when the journal cannot
    // tell (`since` too old, or an unknown change after it).
    [[nodiscard]] core::result<core::row_changes> changes_since(std::uint64_t since) const;

  private:
    struct entry {
        std::uint64_t revision;
        std::optional<core::row_change> row;  // nullopt: unknown rows
    };
    void push(std::optional<core::row_change> row);

    mutable std::mutex mutex_;
    std::deque<entry> entries_;  // consecutive revisions, the newest last
    std::atomic<std::uint64_t> revision_{1};
};

}  // namespace storefront::storage::detail
