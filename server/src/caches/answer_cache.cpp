// The bounded LRU of GraphQL answers by request and store revisions (answer_cache.hpp).

#include "server/caches/answer_cache.hpp"

#include <utility>

namespace storefront::server {

answer_cache::answer_cache(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::shared_ptr<const prepared_body> answer_cache::find(const std::string& key, const store_revisions& now) {
    const std::lock_guard lock(mutex_);
    const auto found = index_.find(key);
    if (found == index_.end() || found->second->at != now) {
        return nullptr;
    }
    recent_.splice(recent_.begin(), recent_, found->second);
    return found->second->answer;
}

void answer_cache::keep(
    const std::string& key, const store_revisions& at, std::shared_ptr<const prepared_body> answer
) {
    const std::size_t cost = key.size() + answer->bytes().size();
    if (cost > max_bytes_ / 10) {
        return;
    }
    const std::lock_guard lock(mutex_);
    if (const auto found = index_.find(key); found != index_.end()) {
        const auto old = found->second;
        bytes_ -= old->key.size() + old->answer->bytes().size();
        index_.erase(found);
        recent_.erase(old);
    }
    recent_.push_front(entry{key, at, std::move(answer)});
    index_.emplace(recent_.front().key, recent_.begin());
    bytes_ += cost;
    while (recent_.size() > max_entries_ || bytes_ > max_bytes_) {
        drop_oldest();
    }
}

void answer_cache::drop_oldest() {
    const entry& last = recent_.back();
    bytes_ -= last.key.size() + last.answer->bytes().size();
    index_.erase(last.key);
    recent_.pop_back();
}

void answer_cache::clear() {
    const std::lock_guard lock(mutex_);
    index_.clear();
    recent_.clear();
    bytes_ = 0;
}

std::size_t answer_cache::size() const {
    const std::lock_guard lock(mutex_);
    return recent_.size();
}

}  // namespace storefront::server
