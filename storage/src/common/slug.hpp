#pragma once
// The slug a catalogue adapter stores for a product title or a category name, the same in every backend.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/slug.hpp"

namespace storefront::storage::detail {

// The slug of a new title or name; text with no letter or digit gets "<kind>-<id>".
[[nodiscard]] inline std::string slug_for(std::string_view text, std::string_view kind, std::int64_t id) {
    std::string slug = core::make_slug(text);
    return slug.empty() ? std::string(kind) + "-" + std::to_string(id) : slug;
}

}  // namespace storefront::storage::detail
