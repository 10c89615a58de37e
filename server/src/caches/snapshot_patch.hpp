#pragma once
// Building a fragment_list snapshot (private to server_lib): whole from every item, or from the previous
// snapshot and the rows one revision changed, sharing what did not change.

#include <cstdint>
#include <memory>

#include "server/caches/response_cache.hpp"

namespace storefront::server::detail {

// A snapshot of `items` (every item, in id order) at `revision`.
[[nodiscard]] std::shared_ptr<fragment_list::snapshot> snapshot_of(
    std::uint64_t revision, serialised_items items
);

// `before` with `changes` applied: the chunks holding a changed id are copied with it replaced, removed or
// inserted, every other chunk is shared; the cached pages whose items neither changed nor moved are kept
// (with their ETags and compressed forms).
[[nodiscard]] std::shared_ptr<fragment_list::snapshot> patched(
    const fragment_list::snapshot& before, serialised_changes changes
);

}  // namespace storefront::server::detail
