// Word search over products, users and categories for the lists' `q` parameter.
// Compares in place with ASCII folding, so a search over a whole catalogue makes no lowered copies.

#include "core/list_search.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace storefront::core {

namespace {

bool same_folded(char a, char b) noexcept {
    return ascii_lower(a) == ascii_lower(b);
}

template <class Fields>
bool every_word_in(const std::vector<std::string>& words, Fields fields) noexcept {
    return std::all_of(words.begin(), words.end(), [&](const std::string& word) { return fields(word); });
}

}  // namespace

bool contains_folded(std::string_view text, std::string_view word) noexcept {
    // An empty needle is found at begin(), which is end() for an empty text: answer it first.
    return word.empty() ||
           std::search(text.begin(), text.end(), word.begin(), word.end(), same_folded) != text.end();
}

bool matches_search(const product& item, const std::vector<std::string>& words) noexcept {
    return every_word_in(words, [&](std::string_view word) {
        return contains_folded(item.title, word) || contains_folded(item.description, word);
    });
}

bool matches_search(const user& item, const std::vector<std::string>& words) noexcept {
    return every_word_in(words, [&](std::string_view word) {
        return contains_folded(item.name, word) || contains_folded(item.email, word);
    });
}

bool matches_search(const category& item, const std::vector<std::string>& words) noexcept {
    return every_word_in(words, [&](std::string_view word) { return contains_folded(item.name, word); });
}

}  // namespace storefront::core
