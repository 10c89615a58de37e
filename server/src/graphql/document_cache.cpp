// The LRU of prepared documents: a list in recency order and a map from query text to list position.
// Keys are views into the list's strings, which do not move while their entry lives.

#include "graphql/document_cache.hpp"

namespace storefront::graphql {

document_cache::document_cache(std::size_t capacity) : capacity_(capacity) {}

preparation document_cache::prepare(const schema& s, std::string_view query, const limits& bounds) {
    {
        const std::lock_guard lock(mutex_);
        const auto it = index_.find(query);
        if (it != index_.end()) {
            order_.splice(order_.begin(), order_, it->second);
            return {it->second->second, {}, false};
        }
    }
    preparation fresh = graphql::prepare(s, query, bounds);
    if (fresh.document == nullptr || capacity_ == 0) {
        return fresh;
    }
    const std::lock_guard lock(mutex_);
    if (index_.find(query) == index_.end()) {
        order_.emplace_front(std::string(query), fresh.document);
        index_.emplace(order_.front().first, order_.begin());
        while (order_.size() > capacity_) {
            index_.erase(order_.back().first);
            order_.pop_back();
        }
    }
    return fresh;
}

std::size_t document_cache::size() const {
    const std::lock_guard lock(mutex_);
    return order_.size();
}

}  // namespace storefront::graphql
