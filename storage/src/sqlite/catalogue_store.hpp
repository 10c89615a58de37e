#pragma once
// catalogue_store on SQLite: categories, products and their ordered images in tables with UNIQUE slugs and a
// foreign key from products to categories. Every write is one IMMEDIATE transaction on the shared write
// connection, checks included; reads use the read pool. Blocking: callers run it through the offload pool,
// never on an I/O thread.

#include <cstdint>
#include <memory>
#include <vector>

#include "sqlite/database.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::storage {

class sqlite_catalogue_store final : public catalogue_store {
  public:
    // Writes `categories` and `products` (the seed) the first time this file gets a catalogue, never again.
    sqlite_catalogue_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::vector<core::category>& categories,
        const std::vector<core::product>& products
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

    [[nodiscard]] std::uint64_t revision() const override;

  private:
    void committed(detail::sqlite_connection::transaction& tx);

    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace storefront::storage
