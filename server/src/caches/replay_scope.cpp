// replay_scope: the rows a replayed answer reads, from its route row's statement and its target; and whether
// a changed row touches them.

#include "server/caches/replay_scope.hpp"

#include <charconv>

namespace storefront::server {

namespace {

// The id in the last path segment of `target` (before any query), or nullopt.
std::optional<std::int64_t> last_segment_id(std::string_view target) {
    target = target.substr(0, target.find_first_of("?#"));
    const std::string_view segment = target.substr(target.rfind('/') + 1);
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), id);
    if (ec != std::errc{} || end != segment.data() + segment.size() || segment.empty()) {
        return std::nullopt;
    }
    return id;
}

}  // namespace

replay_scope scope_of(const rows_read& reads, std::string_view target) {
    replay_scope scope{.tables = reads.tables};
    if (reads.one_row_of) {
        scope.item = last_segment_id(target);
        scope.item_table = *reads.one_row_of;
    }
    return scope;
}

bool touches(const replay_scope& scope, const core::row_change& change) {
    if ((scope.tables & table_bit(change.table)) == 0) {
        return false;
    }
    return !scope.item || change.table != scope.item_table || change.id == *scope.item;
}

}  // namespace storefront::server
