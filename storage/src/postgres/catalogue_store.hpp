#pragma once
// catalogue_store on PostgreSQL: categories and products (images as a text[] column) with UNIQUE slugs, a
// foreign key from products to categories and ids from identity sequences; every write is one transaction
// that also notifies storefront_catalogue, so the revision of every instance moves. Blocking: callers run
// it through the offload pool, never on an I/O thread.

#include <cstdint>
#include <string>
#include <vector>

#include "postgres/aggregate.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::storage {

class pg_catalogue_store final : public catalogue_store {
  public:
    // Uses the process's pool for `dsn`; an empty database gets `categories` and `products` (the seed) once.
    pg_catalogue_store(
        const std::string& dsn,
        std::size_t pool_size,
        std::vector<core::category> categories,
        std::vector<core::product> products
    );

    [[nodiscard]] std::vector<core::product> list_products(
        const core::product_filter& filter, const core::page_request& page
    ) const override;
    [[nodiscard]] std::size_t count_products(const core::product_filter& filter) const override;
    [[nodiscard]] core::result<core::product> find_product(std::int64_t id) const override;
    [[nodiscard]] core::result<core::product> find_product_by_slug(std::string_view slug) const override;
    [[nodiscard]] core::result<std::vector<core::product>> related_products(std::int64_t id) const override;
    [[nodiscard]] std::vector<core::category> list_categories() const override;
    [[nodiscard]] core::result<core::category> find_category(std::int64_t id) const override;
    [[nodiscard]] core::result<core::category> find_category_by_slug(std::string_view slug) const override;

    [[nodiscard]] core::result<core::product> create_product(const core::product_draft& draft) override;
    [[nodiscard]] core::result<core::product> update_product(
        std::int64_t id, const core::product_patch& patch
    ) override;
    [[nodiscard]] core::result<void> delete_product(std::int64_t id) override;
    [[nodiscard]] core::result<core::category> create_category(const core::category_draft& draft) override;
    [[nodiscard]] core::result<core::category> update_category(
        std::int64_t id, const core::category_patch& patch
    ) override;
    [[nodiscard]] core::result<void> delete_category(std::int64_t id) override;

    // In memory: bumped by this store's commits and by other instances' notifications.
    [[nodiscard]] std::uint64_t revision() const override { return aggregate_.revision(); }

  private:
    mutable detail::pg_aggregate aggregate_;
};

namespace detail {
// Writes the seed catalogue into empty tables (used by the first start and by reset_to_seed).
void write_catalogue_seed(
    pg_connection& conn,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
);
}  // namespace detail

}  // namespace storefront::storage
