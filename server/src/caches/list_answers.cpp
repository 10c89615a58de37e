// The bounded LRU of list answers per store revision (list_answers.hpp).

#include "server/caches/list_answers.hpp"

#include <utility>

namespace storefront::server {

list_answers::list_answers(std::size_t max_entries, std::size_t max_bytes)
    : locked_lru(max_entries, max_bytes) {}

std::optional<list_answer> list_answers::find(const std::string& key, std::uint64_t revision) {
    const std::lock_guard lock(mutex_);
    if (revision != revision_) {
        return std::nullopt;
    }
    const list_answer* found = kept_.find(key, [](const list_answer&) { return true; });
    return found != nullptr ? std::optional<list_answer>(*found) : std::nullopt;
}

void list_answers::keep(const std::string& key, std::uint64_t revision, list_answer answer) {
    if (!kept_.worth_keeping(key, answer)) {
        return;
    }
    const std::lock_guard lock(mutex_);
    if (revision < revision_) {
        return;  // computed before a write the cache has already seen
    }
    if (revision != revision_) {
        kept_.clear();
        revision_ = revision;
    }
    kept_.keep(key, std::move(answer));
}

}  // namespace storefront::server
