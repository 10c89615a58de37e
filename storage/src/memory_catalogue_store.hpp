#pragma once
// In-memory catalogue_store: immutable after construction, so concurrent readers need no locking.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/catalogue_store.hpp"

namespace storefront::storage {

class memory_catalogue_store final : public catalogue_store {
  public:
    // Takes the whole catalogue; both lists are sorted by id. Throws std::invalid_argument on duplicate ids.
    memory_catalogue_store(std::vector<core::category> categories, std::vector<core::product> products);

    [[nodiscard]] std::vector<core::product> list_products(const core::page_request& page) const override;
    [[nodiscard]] std::size_t product_count() const override;
    [[nodiscard]] std::vector<core::category> list_categories() const override;
    [[nodiscard]] std::uint64_t revision() const override;

  private:
    std::vector<core::category> categories_;
    std::vector<core::product> products_;
};

}  // namespace storefront::storage
