// The bounded LRU of list answers per store revision (list_answers.hpp).

#include "server/caches/list_answers.hpp"

#include <utility>

namespace storefront::server {

namespace {

std::size_t cost_of(const std::string& key, const list_answer& answer) {
    return key.size() + answer.json->bytes().size();
}

}  // namespace

list_answers::list_answers(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::optional<list_answer> list_answers::find(const std::string& key, std::uint64_t revision) {
    const std::lock_guard lock(mutex_);
    if (revision != revision_) {
        return std::nullopt;
    }
    const auto found = index_.find(key);
    if (found == index_.end()) {
        return std::nullopt;
    }
    recent_.splice(recent_.begin(), recent_, found->second);
    return found->second->answer;
}

void list_answers::keep(const std::string& key, std::uint64_t revision, list_answer answer) {
    const std::size_t cost = cost_of(key, answer);
    if (cost > max_bytes_ / 10) {
        return;
    }
    const std::lock_guard lock(mutex_);
    if (revision < revision_) {
        return;  // computed before a write the cache has already seen
    }
    if (revision != revision_) {
        drop_all();
        revision_ = revision;
    }
    if (const auto found = index_.find(key); found != index_.end()) {
        const auto old = found->second;
        bytes_ -= cost_of(old->key, old->answer);
        index_.erase(found);
        recent_.erase(old);
    }
    recent_.push_front(entry{key, std::move(answer)});
    index_.emplace(recent_.front().key, recent_.begin());
    bytes_ += cost;
    while (recent_.size() > max_entries_ || bytes_ > max_bytes_) {
        drop_oldest();
    }
}

void list_answers::drop_oldest() {
    const entry& last = recent_.back();
    bytes_ -= cost_of(last.key, last.answer);
    index_.erase(last.key);
    recent_.pop_back();
}

void list_answers::drop_all() {
    index_.clear();
    recent_.clear();
    bytes_ = 0;
}

void list_answers::clear() {
    const std::lock_guard lock(mutex_);
    drop_all();
}

std::size_t list_answers::size() const {
    const std::lock_guard lock(mutex_);
    return recent_.size();
}

std::size_t list_answers::bytes() const {
    const std::lock_guard lock(mutex_);
    return bytes_;
}

}  // namespace storefront::server
