#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "graphql/document.hpp"

namespace storefront::graphql {

// Bounded LRU of preparations (successful ones only) keyed by query text; thread-safe (a mutex). Parsing
// and validation run outside the lock, so a slow document never blocks hits on others.
class document_cache final {
  public:
    explicit document_cache(std::size_t capacity);
    // The cached document for `query`, else graphql::prepare's result (kept when it succeeded). The cache
    // assumes one schema and one set of limits per cache.
    [[nodiscard]] preparation prepare(const schema& s, std::string_view query, const limits& bounds);
    // How many documents are held.
    [[nodiscard]] std::size_t size() const;

  private:
    using entry = std::pair<std::string, std::shared_ptr<const prepared_document>>;
    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::list<entry> order_;  // most recently used first
    std::unordered_map<std::string_view, std::list<entry>::iterator> index_;
};

}  // namespace storefront::graphql
