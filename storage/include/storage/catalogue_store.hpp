#pragma once
// Port for the product catalogue: products (with their category embedded) and categories, in id order.
// Adapters are safe to call from several threads at once; every write is atomic and, once it returns,
// visible to every later call on any thread. Ids, slugs and timestamps are assigned by the store.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "core/model.hpp"
#include "core/pagination.hpp"
#include "storage/store_bases.hpp"

namespace storefront::storage {

class catalogue_store : public revisioned_store {
  public:
    virtual ~catalogue_store() = default;

    // One page of the products that pass `filter`, in id order (empty past the end).
    [[nodiscard]] virtual std::vector<core::product> list_products(
        const core::product_filter& filter, const core::page_request& page
    ) const = 0;
    // How many products pass `filter`.
    [[nodiscard]] virtual std::size_t count_products(const core::product_filter& filter) const = 0;

    // errc::not_found when there is none.
    [[nodiscard]] virtual core::result<core::product> find_product(std::int64_t id) const = 0;
    [[nodiscard]] virtual core::result<core::product> find_product_by_slug(std::string_view slug) const = 0;
    // The products of `ids` that exist, in id order, each once: one read however many (the rows a batch of
    // writes changed, for the cached lists).
    [[nodiscard]] virtual std::vector<core::product> find_products(const std::vector<std::int64_t>& ids
    ) const = 0;

    // Every other product of the same category as product `id`, in id order; errc::not_found.
    [[nodiscard]] virtual core::result<std::vector<core::product>> related_products(std::int64_t id
    ) const = 0;

    // Every category in id order.
    [[nodiscard]] virtual std::vector<core::category> list_categories() const = 0;
    [[nodiscard]] virtual core::result<core::category> find_category(std::int64_t id) const = 0;
    [[nodiscard]] virtual core::result<core::category> find_category_by_slug(std::string_view slug) const = 0;

    // The slug comes from the title. errc::invalid_reference (no such category), errc::conflict (slug
    // taken), errc::storage_full.
    [[nodiscard]] virtual core::result<core::product> create_product(const core::product_draft& draft) = 0;
    // Changes the given fields (a new title gives a new slug). errc::not_found, errc::seed_read_only,
    // errc::invalid_reference, errc::conflict.
    [[nodiscard]] virtual core::result<core::product> update_product(
        std::int64_t id, const core::product_patch& patch
    ) = 0;
    // errc::not_found, errc::seed_read_only.
    [[nodiscard]] virtual core::result<void> delete_product(std::int64_t id) = 0;

    // The slug comes from the name. errc::conflict (slug taken), errc::storage_full.
    [[nodiscard]] virtual core::result<core::category> create_category(const core::category_draft& draft) = 0;
    // A new name gives a new slug; the products of the category embed the new values at once.
    // errc::not_found, errc::seed_read_only, errc::conflict.
    [[nodiscard]] virtual core::result<core::category> update_category(
        std::int64_t id, const core::category_patch& patch
    ) = 0;
    // errc::not_found, errc::seed_read_only, errc::in_use (products still belong to it).
    [[nodiscard]] virtual core::result<void> delete_category(std::int64_t id) = 0;
};

}  // namespace storefront::storage
