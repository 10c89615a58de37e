#pragma once
// In-memory catalogue_store: id-ordered maps with slug indexes behind one reader/writer lock; every write
// bumps an atomic revision after the change, so a reader that sees the new revision sees the change.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <shared_mutex>
#include <string>
#include <vector>

#include "storage/catalogue_store.hpp"

namespace storefront::storage {

class memory_catalogue_store final : public catalogue_store {
  public:
    // Room for this many rows of each kind (errc::storage_full beyond), so a public instance that anyone
    // may write to cannot be made to grow without bound.
    static constexpr std::size_t default_max_products = 100'000;
    static constexpr std::size_t default_max_categories = 10'000;

    // Takes the whole catalogue (seed rows keep their `seed` flag). Throws std::invalid_argument on
    // duplicate ids or slugs, or a product whose category is not in `categories`.
    memory_catalogue_store(
        std::vector<core::category> categories,
        std::vector<core::product> products,
        std::size_t max_products = default_max_products,
        std::size_t max_categories = default_max_categories
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
    using slug_index = std::map<std::string, std::int64_t, std::less<>>;

    void committed();  // called with the lock held, after a write

    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::category> categories_;
    std::map<std::int64_t, core::product> products_;
    slug_index category_slugs_;
    slug_index product_slugs_;
    std::int64_t last_category_id_ = 0;
    std::int64_t last_product_id_ = 0;
    std::size_t max_products_;
    std::size_t max_categories_;
    std::atomic<std::uint64_t> revision_{1};
};

}  // namespace storefront::storage
