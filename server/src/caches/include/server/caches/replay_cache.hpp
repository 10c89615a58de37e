#pragma once
// Answers a repeated GET again without parsing or routing it: per I/O thread, the exact bytes of a
// request's header section -> what the caller keeps of its answer, for as long as the shared data's
// revision stands, or the caller advance()s it past writes that did not touch it (the contract:
// caches/data_revision.hpp). Generic over the entry, which transport defines
// (transport/replay_entry.hpp: the answer, the route it matched, what the access log needs), so this folder
// knows nothing of routing. Touched by its own thread only.
//
// Entry: has `std::string request_head` (the request's header section: the key) and a function
// `std::size_t owned_bytes(const Entry&)`, found by argument-dependent lookup: the bytes it holds that
// nothing else shares.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace storefront::server {

template <class Entry>
class replay_cache_of {
  public:
    // Bounds: entries, bytes of one request head, and bytes held (request heads and bodies owned by
    // entries; shared pre-serialised bodies are the lists' and cost nothing here). Over a bound, an entry is
    // not kept or every entry is dropped: a thread's cache refills within a few requests.
    static constexpr std::size_t max_entries = 1024;
    static constexpr std::size_t max_request_head = 2048;
    static constexpr std::size_t max_bytes = 8 * 1024 * 1024;

    // The entry for these exact header bytes while the data is at `revision`, or nullptr. Entries of an
    // older revision are all dropped at once.
    [[nodiscard]] std::shared_ptr<const Entry> find(std::string_view request_head, std::uint64_t revision) {
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

    // Keeps `entry`, answered from data at revision `answered_at`, when the data is still there (`now`).
    void keep(std::shared_ptr<const Entry> entry, std::uint64_t answered_at, std::uint64_t now) {
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

    // The revision every entry stands at.
    [[nodiscard]] std::uint64_t revision() const { return revision_; }

    // Moves every entry to revision `to`, dropping those for which `touched(entry)` is true: the caller has
    // checked that the writes between revision() and `to` changed no other entry's answer.
    template <class Touched>
    void advance(std::uint64_t to, Touched&& touched) {
        for (auto it = entries_.begin(); it != entries_.end();) {
            if (touched(*it->second)) {
                bytes_ -= owned_bytes(*it->second);
                it = entries_.erase(it);
            } else {
                ++it;
            }
        }
        revision_ = to;
    }

    [[nodiscard]] std::size_t size() const { return entries_.size(); }
    [[nodiscard]] std::size_t bytes() const { return bytes_; }

  private:
    void drop_all() {
        entries_.clear();
        bytes_ = 0;
    }

    // Keys view into their entries' request_head.
    std::unordered_map<std::string_view, std::shared_ptr<const Entry>> entries_;
    std::uint64_t revision_ = 0;  // of every entry
    std::size_t bytes_ = 0;
};

}  // namespace storefront::server
