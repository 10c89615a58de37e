#pragma once
// catalogue_store on SQLite: categories, products and their ordered images in tables with UNIQUE slugs and a
// foreign key from products to categories; every write is one IMMEDIATE transaction that also bumps the
// revision row, so a reader that sees the new revision sees the change. Blocking: callers run it through
// the offload pool, never on an I/O thread.

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "sqlite_db.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::storage {

class sqlite_catalogue_store final : public catalogue_store {
  public:
    // Opens (creating) the database at `path`; an empty catalogue gets `categories` and `products` (the
    // seed) once, never again at a later start.
    sqlite_catalogue_store(
        const std::string& path, std::vector<core::category> categories, std::vector<core::product> products
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
    [[nodiscard]] std::vector<core::product> query_products(std::string_view where, auto&& bind) const;
    [[nodiscard]] std::vector<core::category> query_categories(std::string_view where, auto&& bind) const;
    void write_images(std::int64_t product_id, const std::vector<std::string>& images);
    void bump_revision();
    void seed(const std::vector<core::category>& categories, const std::vector<core::product>& products);

    // One connection per store; SQLite serialises writers anyway, and this keeps statements simple.
    // (Readers in parallel come with a small pool of read connections later.)
    mutable std::mutex mutex_;
    mutable detail::sqlite_db db_;
};

}  // namespace storefront::storage
