#pragma once
// Port for the product catalogue: products (with their category embedded) and categories, in id order.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model.hpp"
#include "core/pagination.hpp"

namespace storefront::storage {

class catalogue_store {
  public:
    virtual ~catalogue_store() = default;

    // One page of products in id order (empty past the end).
    [[nodiscard]] virtual std::vector<core::product> list_products(const core::page_request& page) const = 0;
    [[nodiscard]] virtual std::size_t product_count() const = 0;

    // Every category in id order.
    [[nodiscard]] virtual std::vector<core::category> list_categories() const = 0;

    // Increases whenever the catalogue changes, so callers may cache serialised pages per revision.
    [[nodiscard]] virtual std::uint64_t revision() const = 0;
};

}  // namespace storefront::storage
