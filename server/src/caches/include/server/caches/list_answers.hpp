#pragma once
// Answers to filtered, searched or sorted list requests, kept per store set by the request's canonical key
// with the store revision they were computed at: a repeated request costs a lookup and no storage call, and
// its ETag and compressed forms are made once per revision. Bounded in entries and bytes, least recently
// used dropped first; a revision that moved on makes every older entry a miss. Invalidation contract:
// caches/data_revision.hpp.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/caches/bounded_lru.hpp"
#include "server/codec/representation.hpp"

namespace storefront::server {

// A list answer's bytes and how many items matched before paging (X-Total-Count).
struct list_answer {
    std::shared_ptr<const prepared_body> json;
    std::size_t total = 0;
};

class list_answers : public locked_lru<list_answer, body_bytes<&list_answer::json>> {
  public:
    list_answers(std::size_t max_entries, std::size_t max_bytes);
    list_answers(const list_answers&) = delete;
    list_answers& operator=(const list_answers&) = delete;

    // The answer to `key` computed at `revision`, or nullopt.
    [[nodiscard]] std::optional<list_answer> find(const std::string& key, std::uint64_t revision);
    // Keeps `answer` for `key`, computed from the store at `revision` (read before the store was asked:
    // caches/data_revision.hpp). Answers over a tenth of max_bytes are not kept; entries of other revisions
    // are dropped first, and an answer of a revision older than the entries' is not kept.
    void keep(const std::string& key, std::uint64_t revision, list_answer answer);

  private:
    std::uint64_t revision_ = 0;  // of every entry kept (under mutex_)
};

}  // namespace storefront::server
