// The bounded LRU of GraphQL answers by request and store revisions (answer_cache.hpp).

#include "server/caches/answer_cache.hpp"

#include <utility>

namespace storefront::server {

answer_cache::answer_cache(std::size_t max_entries, std::size_t max_bytes)
    : locked_lru(max_entries, max_bytes) {}

std::shared_ptr<const prepared_body> answer_cache::find(const std::string& key, const store_revisions& now) {
    const std::lock_guard lock(mutex_);
    const kept_answer* found = kept_.find(key, [&](const kept_answer& k) { return k.at == now; });
    return found != nullptr ? found->answer : nullptr;
}

void answer_cache::keep(
    const std::string& key, const store_revisions& at, std::shared_ptr<const prepared_body> answer
) {
    const std::lock_guard lock(mutex_);
    kept_.keep(key, kept_answer{at, std::move(answer)});  // not when over a tenth of max_bytes
}

}  // namespace storefront::server
