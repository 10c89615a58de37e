#pragma once
// A least-recently-used map from string keys to values, bounded in entries and in bytes (an entry costs its
// key's size plus `Cost{}(value)`): the bookkeeping the answer caches share. Not synchronised: its owner
// locks around every call.

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace storefront::server {

template <class Value, class Cost>
class bounded_lru {
  public:
    bounded_lru(std::size_t max_entries, std::size_t max_bytes)
        : max_entries_(max_entries), max_bytes_(max_bytes) {}
    bounded_lru(const bounded_lru&) = delete;
    bounded_lru& operator=(const bounded_lru&) = delete;

    // Whether `value` under `key` is small enough to keep: at most a tenth of max_bytes, so one entry never
    // empties the cache. Reads only the bounds, so it needs no lock.
    [[nodiscard]] bool worth_keeping(const std::string& key, const Value& value) const {
        return cost_of(key, value) <= max_bytes_ / 10;
    }

    // The value of `key` if `usable(value)`, then the most recently used; nullptr otherwise (an unusable
    // entry keeps its place).
    template <class Usable>
    [[nodiscard]] const Value* find(const std::string& key, Usable usable) {
        const auto found = index_.find(key);
        if (found == index_.end() || !usable(found->second->value)) {
            return nullptr;
        }
        recent_.splice(recent_.begin(), recent_, found->second);
        return &found->second->value;
    }

    // Keeps `value` for `key` (replacing what it had) unless it is not worth keeping, then drops the least
    // recently used entries beyond the bounds.
    void keep(const std::string& key, Value value) {
        const std::size_t cost = cost_of(key, value);
        if (cost > max_bytes_ / 10) {
            return;
        }
        if (const auto found = index_.find(key); found != index_.end()) {
            const auto old = found->second;
            bytes_ -= cost_of(old->key, old->value);
            index_.erase(found);
            recent_.erase(old);
        }
        recent_.push_front(entry{key, std::move(value)});
        index_.emplace(recent_.front().key, recent_.begin());
        bytes_ += cost;
        while (recent_.size() > max_entries_ || bytes_ > max_bytes_) {
            const entry& last = recent_.back();
            bytes_ -= cost_of(last.key, last.value);
            index_.erase(last.key);
            recent_.pop_back();
        }
    }

    void clear() {
        index_.clear();
        recent_.clear();
        bytes_ = 0;
    }

    [[nodiscard]] std::size_t size() const { return recent_.size(); }
    [[nodiscard]] std::size_t bytes() const { return bytes_; }

  private:
    struct entry {
        std::string key;
        Value value;
    };

    static std::size_t cost_of(const std::string& key, const Value& value) {
        return key.size() + Cost{}(value);
    }

    std::size_t max_entries_;
    std::size_t max_bytes_;
    using position = typename std::list<entry>::iterator;

    std::list<entry> recent_;                               // most recently used first
    std::unordered_map<std::string_view, position> index_;  // keys view into recent_
    std::size_t bytes_ = 0;
};

// The cost of a value whose `Body` member points to a prepared_body (codec/representation.hpp): its bytes.
template <auto Body>
struct body_bytes {
    template <class Value>
    std::size_t operator()(const Value& v) const {
        return (v.*Body)->bytes().size();
    }
};

// A bounded_lru with the mutex its owner (a cache) locks around every call, and the calls that need nothing
// else: an owner's clear, size and bytes.
template <class Value, class Cost>
class locked_lru {
  public:
    locked_lru(std::size_t max_entries, std::size_t max_bytes) : kept_(max_entries, max_bytes) {}

    // Forgets every entry (their image URLs name a public URL that changed).
    void clear() {
        const std::lock_guard lock(mutex_);
        kept_.clear();
    }
    [[nodiscard]] std::size_t size() const {
        const std::lock_guard lock(mutex_);
        return kept_.size();
    }
    [[nodiscard]] std::size_t bytes() const {
        const std::lock_guard lock(mutex_);
        return kept_.bytes();
    }

  protected:
    mutable std::mutex mutex_;
    bounded_lru<Value, Cost> kept_;
};

}  // namespace storefront::server
