// memory_catalogue_store: products and categories in id-ordered maps, slugs indexed; reads share a lock,
// writes take it alone and record the changed row (moving the revision) before releasing it.

#include "storage/catalogue_store.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/change_journal.hpp"
#include "common/clock.hpp"
#include "common/found.hpp"
#include "common/next_id.hpp"
#include "common/patch.hpp"
#include "common/slug.hpp"
#include "core/catalogue_rules.hpp"
#include "memory/product_index.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

constexpr auto is_seed = [](const auto& entity) { return entity.seed; };

class memory_catalogue_store final : public catalogue_store, public detail::memory_stock {
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
    )
        : max_products_(max_products), max_categories_(max_categories) {
        for (auto& c : categories) {
            const std::int64_t id = c.id;
            if (!category_slugs_.emplace(c.slug, id).second ||
                !categories_.emplace(id, std::move(c)).second) {
                throw std::invalid_argument("duplicate category id or slug: " + std::to_string(id));
            }
            last_category_id_ = std::max(last_category_id_, id);
        }
        for (auto& p : products) {
            const std::int64_t id = p.id;
            if (!categories_.contains(p.product_category.id)) {
                throw std::invalid_argument("product " + std::to_string(id) + " has an unknown category");
            }
            if (!product_slugs_.emplace(p.slug, id).second || !products_.emplace(id, std::move(p)).second) {
                throw std::invalid_argument("duplicate product id or slug: " + std::to_string(id));
            }
            last_product_id_ = std::max(last_product_id_, id);
        }
        for (const auto& [id, p] : products_) {
            index_.add(p);
        }
    }

    std::vector<core::product> list_products(
        const core::product_filter& filter, const core::page_request& page
    ) const override {
        std::shared_lock lock(mutex_);
        std::vector<core::product> out;
        std::size_t skipped = 0;
        each_match(filter, [&](const core::product& p) {
            if (out.size() >= page.limit) {
                return false;
            }
            if (skipped < page.offset) {
                ++skipped;
                return true;
            }
            out.push_back(p);
            return true;
        });
        return out;
    }

    std::size_t count_products(const core::product_filter& filter) const override {
        std::shared_lock lock(mutex_);
        if (filter.empty()) {
            return products_.size();
        }
        std::size_t count = 0;
        each_match(filter, [&](const core::product&) {
            ++count;
            return true;
        });
        return count;
    }

    core::result<core::product> find_product(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        return detail::find_in(products_, id);
    }

    std::vector<core::product> find_products(const std::vector<std::int64_t>& ids) const override {
        auto sorted = ids;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        std::shared_lock lock(mutex_);
        std::vector<core::product> out;
        for (const auto id : sorted) {
            if (auto found = detail::find_in(products_, id)) {
                out.push_back(std::move(*found));
            }
        }
        return out;
    }

    core::result<core::product> find_product_by_slug(std::string_view slug) const override {
        std::shared_lock lock(mutex_);
        return detail::find_indexed(product_slugs_, products_, slug);
    }

    core::result<std::vector<core::product>> related_products(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        const auto it = products_.find(id);
        if (it == products_.end()) {
            return core::errc::not_found;
        }
        const std::int64_t category_id = it->second.product_category.id;
        std::vector<core::product> out;
        for (const auto& [other_id, p] : products_) {
            if (other_id != id && p.product_category.id == category_id) {
                out.push_back(p);
            }
        }
        return out;
    }

    std::vector<core::category> list_categories() const override {
        std::shared_lock lock(mutex_);
        std::vector<core::category> out;
        out.reserve(categories_.size());
        for (const auto& [id, c] : categories_) {
            out.push_back(c);
        }
        return out;
    }

    core::result<core::category> find_category(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        return detail::find_in(categories_, id);
    }

    core::result<core::category> find_category_by_slug(std::string_view slug) const override {
        std::shared_lock lock(mutex_);
        return detail::find_indexed(category_slugs_, categories_, slug);
    }

    core::result<core::product> create_product(const core::product_draft& draft) override {
        std::unique_lock lock(mutex_);
        if (products_.size() >= max_products_) {
            return core::errc::storage_full;
        }
        const auto category = categories_.find(draft.category_id);
        if (category == categories_.end()) {
            return core::errc::invalid_reference;
        }
        auto key = new_key(product_slugs_, last_product_id_, draft.title, "product");
        if (!key) {
            return key.error();
        }
        core::product p;
        p.id = key->id;
        p.title = draft.title;
        p.slug = key->slug;
        p.price = draft.price;
        p.description = draft.description;
        p.product_category = category->second;
        p.images = draft.images;
        p.stock = draft.stock;
        p.created_at = p.updated_at = detail::now_ms();
        keep_key(product_slugs_, last_product_id_, *key);
        products_.emplace(p.id, p);
        index_.add(p);
        journal_.record(core::row_table::products, p.id);
        return p;
    }

    core::result<core::product> update_product(std::int64_t id, const core::product_patch& patch) override {
        return change_catalogue_row(
            products_,
            core::row_table::products,
            id,
            [&](auto it) -> core::result<core::product> {
                core::product p = it->second;
                if (patch.category_id) {
                    const auto category = categories_.find(*patch.category_id);
                    if (category == categories_.end()) {
                        return core::errc::invalid_reference;
                    }
                    p.product_category = category->second;
                }
                auto new_slug = slug_after(product_slugs_, patch.title, "product", id, p.slug);
                if (!new_slug) {
                    return new_slug.error();
                }
                detail::patch_field(p.title, patch.title);
                detail::patch_field(p.price, patch.price);
                detail::patch_field(p.description, patch.description);
                detail::patch_field(p.images, patch.images);
                detail::patch_field(p.stock, patch.stock);
                p.updated_at = detail::now_ms();
                move_slug(product_slugs_, p.slug, std::move(*new_slug), id);
                index_.remove(it->second);
                index_.add(p);
                it->second = p;
                return p;
            }
        );
    }

    core::result<void> delete_product(std::int64_t id) override {
        return change_catalogue_row(
            products_,
            core::row_table::products,
            id,
            [&](auto it) -> core::result<void> {
                product_slugs_.erase(it->second.slug);
                index_.remove(it->second);
                products_.erase(it);
                return {};
            }
        );
    }

    core::result<core::category> create_category(const core::category_draft& draft) override {
        std::unique_lock lock(mutex_);
        if (categories_.size() >= max_categories_) {
            return core::errc::storage_full;
        }
        auto key = new_key(category_slugs_, last_category_id_, draft.name, "category");
        if (!key) {
            return key.error();
        }
        core::category c;
        c.id = key->id;
        c.name = draft.name;
        c.slug = key->slug;
        c.image = draft.image;
        c.created_at = c.updated_at = detail::now_ms();
        keep_key(category_slugs_, last_category_id_, *key);
        categories_.emplace(c.id, c);
        journal_.record(core::row_table::categories, c.id);
        return c;
    }

    core::result<core::category> update_category(std::int64_t id, const core::category_patch& patch)
        override {
        return change_catalogue_row(
            categories_,
            core::row_table::categories,
            id,
            [&](auto it) -> core::result<core::category> {
                core::category c = it->second;
                auto new_slug = slug_after(category_slugs_, patch.name, "category", id, c.slug);
                if (!new_slug) {
                    return new_slug.error();
                }
                detail::patch_field(c.name, patch.name);
                detail::patch_field(c.image, patch.image);
                c.updated_at = detail::now_ms();
                move_slug(category_slugs_, c.slug, std::move(*new_slug), id);
                it->second = c;
                for (auto& [product_id, p] : products_) {
                    if (p.product_category.id == id) {
                        p.product_category = c;
                    }
                }
                return c;
            }
        );
    }

    core::result<void> delete_category(std::int64_t id) override {
        return change_catalogue_row(
            categories_,
            core::row_table::categories,
            id,
            [&](auto it) -> core::result<void> {
                for (const auto& [product_id, p] : products_) {
                    if (p.product_category.id == id) {
                        return core::errc::in_use;
                    }
                }
                category_slugs_.erase(it->second.slug);
                categories_.erase(it);
                return {};
            }
        );
    }

    std::uint64_t revision() const override { return journal_.revision(); }

    core::result<std::vector<core::product>> take_stock(
        const std::vector<core::cart_line>& lines, bool take, core::stock_shortage* shortage
    ) override {
        std::unique_lock lock(mutex_);
        std::vector<core::product> out;
        for (const auto& line : lines) {
            const auto it = products_.find(line.product_id);
            if (it == products_.end()) {
                if (shortage) {
                    *shortage = {line.product_id, line.quantity, 0};
                }
                return core::errc::not_found;
            }
            if (it->second.stock < line.quantity) {
                if (shortage) {
                    *shortage = {line.product_id, line.quantity, it->second.stock};
                }
                return core::errc::out_of_stock;
            }
            out.push_back(it->second);
        }
        // Every line fits (a cart holds each product once): only now is anything taken.
        for (const auto& line : lines) {
            if (take) {
                products_[line.product_id].stock -= line.quantity;
                journal_.record(core::row_table::products, line.product_id);
            }
        }
        return out;
    }

    void give_back_stock(const std::vector<core::cart_line>& lines) override {
        std::unique_lock lock(mutex_);
        for (const auto& line : lines) {
            // A product deleted since the order was placed has nothing to return to.
            if (auto it = products_.find(line.product_id); it != products_.end()) {
                it->second.stock += line.quantity;
                journal_.record(core::row_table::products, line.product_id);
            }
        }
    }

    core::result<core::row_changes> changes_since(std::uint64_t since) const override {
        return journal_.changes_since(since);
    }

  private:
    using slug_index = std::map<std::string, std::int64_t, std::less<>>;

    // Calls `visit` with each product passing `filter`, in id order, while it returns true: the index's
    // candidates when it narrows the search, else every product. Called with the lock held.
    template <class Visit>
    void each_match(const core::product_filter& filter, Visit&& visit) const {
        std::optional<std::int64_t> category = filter.category_id;
        if (filter.category_slug) {
            const auto found = category_slugs_.find(*filter.category_slug);
            if (found == category_slugs_.end() || (category && *category != found->second)) {
                return;
            }
            category = found->second;
        }
        if (const auto ids = index_.candidates(filter, category)) {
            for (const std::int64_t id : *ids) {
                const auto found = products_.find(id);
                if (found != products_.end() && core::matches(filter, found->second) &&
                    !visit(found->second)) {
                    return;
                }
            }
            return;
        }
        for (const auto& [id, p] : products_) {
            if (core::matches(filter, p) && !visit(p)) {
                return;
            }
        }
    }

    // A catalogue write of entry `id` of `rows` (`table`) under the exclusive lock: errc::not_found,
    // errc::seed_read_only for seed rows (read-only), else `change(entry)`'s answer; a success moves the
    // revision.
    template <class Map, class Change>
    auto change_catalogue_row(Map& rows, core::row_table table, std::int64_t id, Change&& change)
        -> decltype(change(rows.begin())) {
        std::unique_lock lock(mutex_);
        const auto found = detail::find_writable(rows, id, is_seed, core::errc::seed_read_only);
        if (!found) {
            return found.error();
        }
        auto answer = change(*found);
        if (answer) {
            journal_.record(table, id);
        }
        return answer;
    }

    // A new row's id (the one after `last_id`) and slug (from its title or name `text`).
    struct row_key {
        std::int64_t id;
        std::string slug;
    };
    // errc::conflict when another row has the slug.
    static core::result<row_key> new_key(
        const slug_index& index, std::int64_t last_id, std::string_view text, std::string_view kind
    ) {
        const std::int64_t id = next_id(last_id);
        std::string slug = detail::slug_for(text, kind, id);
        if (index.contains(slug)) {
            return core::errc::conflict;
        }
        return row_key{id, std::move(slug)};
    }
    // Once the row is stored: its id is the last one given, its slug in `index`.
    static void keep_key(slug_index& index, std::int64_t& last_id, const row_key& key) {
        last_id = key.id;
        index.emplace(key.slug, key.id);
    }

    // The slug of row `id` after a patch: a new title or name gives a new one, else `current` stays;
    // errc::conflict when another row has it.
    static core::result<std::string> slug_after(
        const slug_index& index,
        const std::optional<std::string>& new_text,
        std::string_view kind,
        std::int64_t id,
        const std::string& current
    ) {
        std::string slug = new_text ? detail::slug_for(*new_text, kind, id) : current;
        if (slug != current && index.contains(slug)) {
            return core::errc::conflict;
        }
        return slug;
    }

    // Row `id`'s slug becomes `slug`, in the row (`row_slug`) and in `index`.
    static void move_slug(slug_index& index, std::string& row_slug, std::string slug, std::int64_t id) {
        if (slug != row_slug) {
            index.erase(row_slug);
            index.emplace(slug, id);
            row_slug = std::move(slug);
        }
    }

    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::category> categories_;
    std::map<std::int64_t, core::product> products_;
    slug_index category_slugs_;
    slug_index product_slugs_;
    detail::product_index index_;  // of products_: title trigrams, category, price
    std::int64_t last_category_id_ = 0;
    std::int64_t last_product_id_ = 0;
    std::size_t max_products_;
    std::size_t max_categories_;
    detail::change_journal journal_;  // written with the lock held, after a write
};

}  // namespace

std::unique_ptr<catalogue_store> make_memory_catalogue_store(
    std::vector<core::category> categories, std::vector<core::product> products
) {
    return std::make_unique<memory_catalogue_store>(std::move(categories), std::move(products));
}

}  // namespace storefront::storage
