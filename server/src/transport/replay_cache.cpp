#include "replay_cache.hpp"

#include <utility>

namespace storefront::server {

namespace {

// What an entry holds that nothing else shares.
std::size_t owned_bytes(const replay_entry& entry) {
    return entry.request_head.capacity() + entry.reply.body.capacity() +
           entry.reply.extra_headers.capacity() + entry.forwarded_for.capacity() +
           entry.forwarded.capacity() + sizeof(replay_entry);
}

}  // namespace

std::shared_ptr<const replay_entry> replay_cache::find(
    std::string_view request_head, std::uint64_t revision
) {
    if (entries_.empty()) {
        return nullptr;
    }
    if (revision != revision_) {
        drop_all();
        return nullptr;
    }
    const auto it = entries_.find(request_head);
    return it == entries_.end() ? nullptr : it->second;
}

void replay_cache::keep(
    std::shared_ptr<const replay_entry> entry, std::uint64_t answered_at, std::uint64_t now
) {
    if (answered_at != now || entry->request_head.size() > max_request_head) {
        return;  // a write came between: the answer may already be stale
    }
    if (now != revision_) {
        drop_all();
        revision_ = now;
    }
    const std::size_t size = owned_bytes(*entry);
    if (size > max_bytes / 64) {
        return;
    }
    if (entries_.size() >= max_entries || bytes_ + size > max_bytes) {
        drop_all();
    }
    const std::string_view key = entry->request_head;
    if (entries_.try_emplace(key, std::move(entry)).second) {
        bytes_ += size;
    }
}

void replay_cache::drop_all() {
    entries_.clear();
    bytes_ = 0;
}

}  // namespace storefront::server
