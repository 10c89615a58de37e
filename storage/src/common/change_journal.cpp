// change_journal: the ring of recent revisions and the rows each changed; the revision moves under the
// same lock that records the row, so changes_since never sees a revision without its row.

#include "common/change_journal.hpp"

namespace storefront::storage::detail {

void change_journal::record(core::row_table table, std::int64_t id) {
    push(core::row_change{table, id});
}

void change_journal::record_unknown() {
    push(std::nullopt);
}

void change_journal::push(std::optional<core::row_change> row) {
    std::lock_guard lock(mutex_);
    const std::uint64_t next = revision_.load(std::memory_order_relaxed) + 1;
    entries_.push_back({next, row});
    if (entries_.size() > capacity) {
        entries_.pop_front();
    }
    revision_.store(next, std::memory_order_release);
}

core::result<core::row_changes> change_journal::changes_since(std::uint64_t since) const {
    std::lock_guard lock(mutex_);
    const std::uint64_t now = revision_.load(std::memory_order_relaxed);
    if (since > now) {
        return core::errc::not_found;  // a revision of something else (a store that was replaced)
    }
    core::row_changes out;
    out.revision = now;
    if (since == now) {
        return out;
    }
    // Entries hold revisions [now - size + 1, now]: the first one after `since` must be among them.
    if (entries_.empty() || entries_.front().revision > since + 1) {
        return core::errc::not_found;
    }
    const auto first = entries_.end() - static_cast<std::ptrdiff_t>(now - since);
    out.rows.reserve(static_cast<std::size_t>(now - since));
    for (auto it = first; it != entries_.end(); ++it) {
        if (!it->row) {
            return core::errc::not_found;
        }
        out.rows.push_back(*it->row);
    }
    return out;
}

}  // namespace storefront::storage::detail
