#pragma once
// Answers to GraphQL queries that depend on the stores alone (no myProfile, no storage trouble), kept per
// store set by request (query text, operation name, variables) with the catalogue and user revisions they
// were computed at: a repeated query costs a lookup, as a REST page served from its cached list does. Bounded
// in entries and bytes, least recently used dropped first; a revision that moved on makes an entry a miss.
// Invalidation contract: caches/data_revision.hpp.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "server/caches/bounded_lru.hpp"
#include "server/caches/data_revision.hpp"  // store_revisions
#include "server/codec/representation.hpp"

namespace storefront::server {

// An answer kept, with the revisions it was computed at.
struct kept_answer {
    store_revisions at;
    std::shared_ptr<const prepared_body> answer;
};

class answer_cache : public locked_lru<kept_answer, body_bytes<&kept_answer::answer>> {
  public:
    answer_cache(std::size_t max_entries, std::size_t max_bytes);
    answer_cache(const answer_cache&) = delete;
    answer_cache& operator=(const answer_cache&) = delete;

    // The answer to `key` computed at `now`, or nullptr.
    [[nodiscard]] std::shared_ptr<const prepared_body> find(
        const std::string& key, const store_revisions& now
    );
    // Keeps `answer` for `key`, computed at `at` (answers over a tenth of max_bytes are not kept).
    void keep(const std::string& key, const store_revisions& at, std::shared_ptr<const prepared_body> answer);
};

}  // namespace storefront::server
