#pragma once
// The `q` search of the lists: every word must occur, ignoring case, in one of the item's searched fields.
// Case folding is ASCII only (A-Z); other bytes, UTF-8 letters included, must match exactly.

#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"

namespace storefront::core {

// Whether `text` contains `word` with ASCII letters compared case-insensitively; an empty word is found
// everywhere. Allocates nothing.
[[nodiscard]] bool contains_folded(std::string_view text, std::string_view word) noexcept;

// Whether every word occurs in the title or the description (each word in either); no words: true.
[[nodiscard]] bool matches_search(const product& item, const std::vector<std::string>& words) noexcept;

// Whether every word occurs in the name or the e-mail address; no words: true.
[[nodiscard]] bool matches_search(const user& item, const std::vector<std::string>& words) noexcept;

// Whether every word occurs in the name; no words: true.
[[nodiscard]] bool matches_search(const category& item, const std::vector<std::string>& words) noexcept;

}  // namespace storefront::core
