// Orderings for the lists' sortBy/order: one field, case-insensitive text, ties by ascending id.
// The comparators fold case per character, so sorting makes no lowered copies of titles or names.

#include "core/list_sort.hpp"

#include <algorithm>
#include <string_view>

#include "core/text.hpp"

namespace storefront::core {

namespace {

template <class T>
int compare_values(const T& a, const T& b) noexcept {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// The field comparison turned into the full order: direction on the field, then ascending id.
template <class Item>
bool ordered(int field, const Item& a, const Item& b, sort_order order) noexcept {
    if (field != 0) {
        return order == sort_order::asc ? field < 0 : field > 0;
    }
    return a.id < b.id;
}

int compare_field(const product& a, const product& b, sort_key key) noexcept {
    switch (key) {
        case sort_key::title:
            return compare_folded(a.title, b.title);
        case sort_key::price:
            return compare_values(a.price, b.price);
        case sort_key::creation_at:
            return compare_values(a.created_at, b.created_at);
        case sort_key::updated_at:
            return compare_values(a.updated_at, b.updated_at);
        case sort_key::id:
        case sort_key::name:
        case sort_key::email:
            break;
    }
    return compare_values(a.id, b.id);
}

int compare_field(const category& a, const category& b, sort_key key) noexcept {
    if (key == sort_key::name) {
        return compare_folded(a.name, b.name);
    }
    return compare_values(a.id, b.id);
}

int compare_field(const user& a, const user& b, sort_key key) noexcept {
    if (key == sort_key::name) {
        return compare_folded(a.name, b.name);
    }
    if (key == sort_key::email) {
        return compare_folded(a.email, b.email);
    }
    return compare_values(a.id, b.id);
}

template <class Item>
void sort_values(std::vector<Item>& items, sort_key key, sort_order order) {
    std::sort(items.begin(), items.end(), [key, order](const Item& a, const Item& b) {
        return sorts_before(a, b, key, order);
    });
}

template <class Item>
void sort_pointers(std::vector<const Item*>& items, sort_key key, sort_order order) {
    std::sort(items.begin(), items.end(), [key, order](const Item* a, const Item* b) {
        return sorts_before(*a, *b, key, order);
    });
}

}  // namespace

int compare_folded(std::string_view a, std::string_view b) noexcept {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        // Compare as unsigned bytes so UTF-8 sorts after ASCII, as it would in a byte-wise comparison.
        const auto x = static_cast<unsigned char>(ascii_lower(a[i]));
        const auto y = static_cast<unsigned char>(ascii_lower(b[i]));
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return compare_values(a.size(), b.size());
}

bool sorts_before(const product& a, const product& b, sort_key key, sort_order order) noexcept {
    return ordered(compare_field(a, b, key), a, b, order);
}

bool sorts_before(const category& a, const category& b, sort_key key, sort_order order) noexcept {
    return ordered(compare_field(a, b, key), a, b, order);
}

bool sorts_before(const user& a, const user& b, sort_key key, sort_order order) noexcept {
    return ordered(compare_field(a, b, key), a, b, order);
}

void sort_items(std::vector<product>& items, sort_key key, sort_order order) {
    sort_values(items, key, order);
}

void sort_items(std::vector<const product*>& items, sort_key key, sort_order order) {
    sort_pointers(items, key, order);
}

void sort_items(std::vector<category>& items, sort_key key, sort_order order) {
    sort_values(items, key, order);
}

void sort_items(std::vector<const category*>& items, sort_key key, sort_order order) {
    sort_pointers(items, key, order);
}

void sort_items(std::vector<user>& items, sort_key key, sort_order order) {
    sort_values(items, key, order);
}

void sort_items(std::vector<const user*>& items, sort_key key, sort_order order) {
    sort_pointers(items, key, order);
}

}  // namespace storefront::core
