#pragma once
// The orders of the lists' `sortBy` and `order`: by one field, text fields compared case-insensitively
// (ASCII folding), ties by ascending id. `desc` reverses the field's order only: equal fields still come
// in ascending id order, so a page boundary never depends on the direction's tie-breaking.

#include <string_view>
#include <vector>

#include "core/list_options.hpp"
#include "core/model.hpp"

namespace storefront::core {

// <0, 0 or >0 as `a` sorts before, with or after `b`, ASCII letters folded to lower case; no copies.
[[nodiscard]] int compare_folded(std::string_view a, std::string_view b) noexcept;

// Strict weak orderings by `key` then id. A key a kind does not have (a product's email) orders by id.
// Products: id, title, price, creation_at, updated_at. Categories: id, name. Users: id, name, email.
[[nodiscard]] bool sorts_before(const product& a, const product& b, sort_key key, sort_order order) noexcept;
[[nodiscard]] bool sorts_before(
    const category& a, const category& b, sort_key key, sort_order order
) noexcept;
[[nodiscard]] bool sorts_before(const user& a, const user& b, sort_key key, sort_order order) noexcept;

// Sort the items, or pointers to items (none null), in place by sorts_before.
void sort_items(std::vector<product>& items, sort_key key, sort_order order);
void sort_items(std::vector<const product*>& items, sort_key key, sort_order order);
void sort_items(std::vector<category>& items, sort_key key, sort_order order);
void sort_items(std::vector<const category*>& items, sort_key key, sort_order order);
void sort_items(std::vector<user>& items, sort_key key, sort_order order);
void sort_items(std::vector<const user*>& items, sort_key key, sort_order order);

}  // namespace storefront::core
