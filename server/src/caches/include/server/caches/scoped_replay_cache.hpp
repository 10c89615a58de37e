#pragma once
// A replay cache (replay_cache.hpp) that outlives writes which do not touch its entries: labelled with each
// store's revision, it asks the stores what changed when the data revision moves and drops only the entries
// a changed row may touch (replay_scope.hpp). The contract: caches/data_revision.hpp. Per I/O thread,
// touched by its own thread only.
//
// Entry: as replay_cache_of's, with a `replay_scope scope` member.

#include <cstdint>
#include <memory>
#include <string_view>

#include "server/caches/data_revision.hpp"
#include "server/caches/replay_cache.hpp"
#include "server/caches/replay_scope.hpp"

namespace storefront::server {

template <class Entry>
class scoped_replay_cache_of {
  public:
    using cache_type = replay_cache_of<Entry>;

    // The entry for these exact header bytes, or nullptr; it answers as the data is now or later (every
    // write answered before this call included).
    [[nodiscard]] std::shared_ptr<const Entry> find(
        std::string_view request_head, const data_revision& data
    ) {
        catch_up(data);
        return cache_.find(request_head, cache_.revision());
    }

    // Keeps `entry`, answered from data at revision `answered_at`, unless a write came in between.
    void keep(std::shared_ptr<const Entry> entry, std::uint64_t answered_at, const data_revision& data) {
        catch_up(data);
        cache_.keep(std::move(entry), answered_at, cache_.revision());
    }

    [[nodiscard]] const cache_type& entries() const { return cache_; }

  private:
    // Brings the entries up to the data's current revision (or later), dropping what the writes in between
    // may have changed. The new label comes from the stores' answer, read after `now`: entries kept then
    // stand for data at least as new as every write answered before this call.
    void catch_up(const data_revision& data) {
        const std::uint64_t now = data.current();
        if (now == cache_.revision() && cache_.revision() == at_.sum()) {
            return;  // each store's revision only grows: an equal sum means neither moved
        }
        auto changes = cache_.size() == 0 ? std::nullopt : data.changes_since(at_);
        if (!changes) {
            at_ = data.stores();
            cache_.advance(at_.sum(), [](const Entry&) { return true; });
            return;
        }
        at_ = changes->at;
        cache_.advance(at_.sum(), [&](const Entry& entry) {
            for (const core::row_change& row : changes->rows) {
                if (touches(entry.scope, row)) {
                    return true;
                }
            }
            return false;
        });
    }

    cache_type cache_;
    store_revisions at_;  // each store's revision the entries stand at; their sum is cache_.revision()
};

}  // namespace storefront::server
