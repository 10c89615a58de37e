// memory_catalogue_store: the catalogue held in two id-sorted vectors; pages are slices of them.

#include "memory_catalogue_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace storefront::storage {
namespace {

template <class T>
void sort_unique_by_id(std::vector<T>& items, const char* what) {
    std::sort(items.begin(), items.end(), [](const T& a, const T& b) { return a.id < b.id; });
    const auto dup =
        std::adjacent_find(items.begin(), items.end(), [](const T& a, const T& b) { return a.id == b.id; });
    if (dup != items.end()) {
        throw std::invalid_argument(std::string("duplicate ") + what + " id " + std::to_string(dup->id));
    }
}

}  // namespace

memory_catalogue_store::memory_catalogue_store(
    std::vector<core::category> categories, std::vector<core::product> products
)
    : categories_(std::move(categories)), products_(std::move(products)) {
    sort_unique_by_id(categories_, "category");
    sort_unique_by_id(products_, "product");
}

std::vector<core::product> memory_catalogue_store::list_products(const core::page_request& page) const {
    const core::index_range range = core::page_slice(page, products_.size());
    const auto first = products_.begin() + static_cast<std::ptrdiff_t>(range.first);
    const auto last = products_.begin() + static_cast<std::ptrdiff_t>(range.last);
    return {first, last};
}

std::size_t memory_catalogue_store::product_count() const {
    return products_.size();
}

std::vector<core::category> memory_catalogue_store::list_categories() const {
    return categories_;
}

// Nothing mutates the catalogue yet, so the first revision is the only one.
std::uint64_t memory_catalogue_store::revision() const {
    return 1;
}

}  // namespace storefront::storage
