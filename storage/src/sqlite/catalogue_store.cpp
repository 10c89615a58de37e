// sqlite_catalogue_store: seed-once, filtered pages in SQL, and writes as single transactions whose checks
// run inside them and whose constraint violations (UNIQUE slug, FOREIGN KEY category) become errc values.

#include "storage/catalogue_store.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/found.hpp"
#include "common/seed_once.hpp"
#include "common/slug.hpp"
#include "sqlite/columns.hpp"
#include "sqlite/database.hpp"
#include "sqlite/product_filter.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

constexpr auto is_seed = [](const auto& row) { return row.seed; };

// Products with their category and their images in order (joined with the unit separator, which no URL
// holds).
constexpr std::string_view product_columns = R"sql(
SELECT p.id, p.title, p.slug, p.price, p.description, p.created_at, p.updated_at, p.seed,
       c.id, c.name, c.slug, c.image, c.created_at, c.updated_at, c.seed,
       (SELECT group_concat(url, char(31)) FROM
            (SELECT url FROM product_images WHERE product_id = p.id ORDER BY position)), p.stock )sql";

constexpr std::string_view product_from = "FROM products p JOIN categories c ON c.id = p.category_id ";

constexpr std::string_view category_select =
    "SELECT id, name, slug, image, created_at, updated_at, seed FROM categories ";

core::category category_at(const sqlite_statement& s, int first) {
    core::category c;
    detail::read_columns(s, first, c.id, c.name, c.slug, c.image, c.created_at, c.updated_at, c.seed);
    return c;
}

core::product product_at(const sqlite_statement& s) {
    core::product p;
    detail::read_columns(
        s, 0, p.id, p.title, p.slug, p.price, p.description, p.created_at, p.updated_at, p.seed
    );
    p.product_category = category_at(s, 8);
    p.stock = s.int64(16);
    const std::string joined = s.text(15);
    std::size_t start = 0;
    while (!joined.empty() && start <= joined.size()) {
        const std::size_t end = std::min(joined.find('\x1f', start), joined.size());
        p.images.push_back(joined.substr(start, end - start));
        start = end + 1;
    }
    return p;
}

// The slug after a patch: a new text (title, name) gives a new slug, else the current one stays.
std::string slug_after(
    const std::optional<std::string>& new_text, std::string_view kind, std::int64_t id, std::string current
) {
    return new_text ? detail::slug_for(*new_text, kind, id) : std::move(current);
}

// Runs an INSERT or UPDATE that may move a slug: a UNIQUE violation means the slug is taken.
core::result<void> write_slugged(sqlite_statement& s) {
    if (s.step() == step::constraint) {
        return core::errc::conflict;
    }
    return {};
}

template <class Bind>
std::vector<core::product> products_where(sqlite_connection& db, std::string_view where, Bind&& bind) {
    auto s = db.prepare(std::string(product_columns) + std::string(product_from) + std::string(where));
    bind(s);
    std::vector<core::product> out;
    while (s.step() == step::row) {
        out.push_back(product_at(s));
    }
    return out;
}

template <class Bind>
std::vector<core::category> categories_where(sqlite_connection& db, std::string_view where, Bind&& bind) {
    auto s = db.prepare(std::string(category_select) + std::string(where));
    bind(s);
    std::vector<core::category> out;
    while (s.step() == step::row) {
        out.push_back(category_at(s, 0));
    }
    return out;
}

core::result<core::product> product_by_id(sqlite_connection& db, std::int64_t id) {
    return detail::first_or_not_found(products_where(db, "WHERE p.id = ?1", [&](auto& s) { s.bind(1, id); }));
}

core::result<core::category> category_by_id(sqlite_connection& db, std::int64_t id) {
    return detail::first_or_not_found(categories_where(db, "WHERE id = ?1", [&](auto& s) { s.bind(1, id); }));
}

std::int64_t next_id_of(sqlite_connection& db, std::string_view table) {
    auto next = db.prepare("SELECT coalesce(max(id), 0) + 1 FROM " + std::string(table));
    (void)next.step();
    return next.int64(0);
}

// The images of a product that has none yet (a new id: a deleted product's images went with it).
void add_images(sqlite_connection& db, std::int64_t product_id, const std::vector<std::string>& images) {
    auto insert = db.prepare("INSERT INTO product_images (product_id, position, url) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < images.size(); ++i) {
        insert.bind(1, product_id).bind(2, static_cast<std::int64_t>(i)).bind(3, std::string_view(images[i]));
        (void)insert.step();
        insert.reset();
    }
}

void replace_images(sqlite_connection& db, std::int64_t product_id, const std::vector<std::string>& images) {
    auto clear = db.prepare("DELETE FROM product_images WHERE product_id = ?1");
    clear.bind(1, product_id);
    (void)clear.step();
    add_images(db, product_id, images);
}

class sqlite_catalogue_store final : public catalogue_store {
  public:
    // Writes `categories` and `products` (the seed) the first time this file gets a catalogue, never again.
    sqlite_catalogue_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::vector<core::category>& categories,
        const std::vector<core::product>& products
    )
        : db_(std::move(db)) {
        detail::seed_once(*db_->writer(), "catalogue", [&](sqlite_connection& w) {
            detail::write_catalogue_seed(w, categories, products);
        });
    }

    std::vector<core::product> list_products(
        const core::product_filter& filter, const core::page_request& page
    ) const override {
        auto r = db_->reader();
        auto s = r->prepare(
            std::string(product_columns) + detail::product_filter_clauses(filter) +
            detail::product_filter_order(filter) + "LIMIT ?7 OFFSET ?8"
        );
        detail::bind_product_filter(s, filter);
        s.bind(7, static_cast<std::int64_t>(std::min<std::size_t>(page.limit, INT64_MAX)));
        s.bind(8, static_cast<std::int64_t>(std::min<std::size_t>(page.offset, INT64_MAX)));
        std::vector<core::product> out;
        while (s.step() == step::row) {
            out.push_back(product_at(s));
        }
        return out;
    }

    std::size_t count_products(const core::product_filter& filter) const override {
        auto r = db_->reader();
        auto s = r->prepare("SELECT count(*)" + detail::product_filter_clauses(filter));
        detail::bind_product_filter(s, filter);
        return s.step() == step::row ? static_cast<std::size_t>(s.int64(0)) : 0;
    }

    core::result<core::product> find_product(std::int64_t id) const override {
        auto r = db_->reader();
        return product_by_id(*r, id);
    }

    std::vector<core::product> find_products(const std::vector<std::int64_t>& ids) const override {
        // One id (the read-back after a lone write): the by-id statement, 36,000 instructions where the list
        // query below costs 67,000 (its list becomes an ephemeral table, then a sort).
        if (ids.size() == 1) {
            auto r = db_->reader();
            return products_where(*r, "WHERE p.id = ?1", [&](auto& s) { s.bind(1, ids.front()); });
        }
        // The ids as one JSON array parameter: one prepared statement whatever their number.
        std::string list = "[";
        for (const auto id : ids) {
            list += (list.size() > 1 ? "," : "") + std::to_string(id);
        }
        list += ']';
        auto r = db_->reader();
        return products_where(
            *r,
            "WHERE p.id IN (SELECT value FROM json_each(?1)) ORDER BY p.id",
            [&](auto& s) { s.bind(1, list); }
        );
    }

    core::result<core::product> find_product_by_slug(std::string_view slug) const override {
        auto r = db_->reader();
        return detail::first_or_not_found(products_where(*r, "WHERE p.slug = ?1", [&](auto& s) {
            s.bind(1, slug);
        }));
    }

    core::result<std::vector<core::product>> related_products(std::int64_t id) const override {
        auto r = db_->reader();
        // The product and its relatives from one snapshot, so a concurrent move cannot mix two states.
        sqlite_connection::read_transaction snapshot(*r);
        const auto product = product_by_id(*r, id);
        if (!product) {
            return product.error();
        }
        return products_where(*r, "WHERE p.category_id = ?1 AND p.id <> ?2 ORDER BY p.id", [&](auto& s) {
            s.bind(1, product->product_category.id).bind(2, id);
        });
    }

    std::vector<core::category> list_categories() const override {
        auto r = db_->reader();
        return categories_where(*r, "ORDER BY id", [](auto&) {});
    }

    core::result<core::category> find_category(std::int64_t id) const override {
        auto r = db_->reader();
        return category_by_id(*r, id);
    }

    core::result<core::category> find_category_by_slug(std::string_view slug) const override {
        auto r = db_->reader();
        return detail::first_or_not_found(categories_where(*r, "WHERE slug = ?1", [&](auto& s) {
            s.bind(1, slug);
        }));
    }

    core::result<core::product> create_product(const core::product_draft& draft) override {
        auto created = db_->write([&](sqlite_connection& w) -> core::result<core::product> {
            auto category = category_by_id(w, draft.category_id);
            if (!category) {
                return core::errc::invalid_reference;
            }
            core::product row;
            row.id = next_id_of(w, "products");
            row.title = draft.title;
            row.slug = detail::slug_for(draft.title, "product", row.id);
            row.price = draft.price;
            row.description = draft.description;
            row.created_at = row.updated_at = detail::now_ms();
            row.product_category = std::move(*category);
            row.images = draft.images;
            auto insert = w.prepare(
                "INSERT INTO products (id, title, slug, price, description, category_id, created_at, "
                "updated_at, stock) "
                "VALUES (?1,?2,?3,?4,?5,?6,?7,?7,?8)"
            );
            row.stock = draft.stock;
            insert.bind(8, row.stock);
            insert.bind(1, row.id).bind(2, std::string_view(row.title)).bind(3, std::string_view(row.slug));
            insert.bind(4, row.price).bind(5, std::string_view(row.description)).bind(6, draft.category_id);
            insert.bind(7, row.created_at);
            if (auto written = write_slugged(insert); !written) {
                return written.error();
            }
            add_images(w, row.id, row.images);
            // The row as written, not read back: reading it again (a join and an ordered image subquery)
            // cost a sixth of a create's CPU.
            return row;
        });
        return recorded(core::row_table::products, std::move(created));
    }

    core::result<core::product> update_product(std::int64_t id, const core::product_patch& patch) override {
        return change_catalogue_row(
            core::row_table::products,
            product_by_id,
            id,
            [&](sqlite_connection& w, const core::product& current) -> core::result<core::product> {
                if (patch.category_id && !category_by_id(w, *patch.category_id)) {
                    return core::errc::invalid_reference;
                }
                auto update = w.prepare(
                    "UPDATE products SET title = ?2, slug = ?3, price = ?4, description = ?5, category_id = "
                    "?6, "
                    "updated_at = ?7, stock = ?8 WHERE id = ?1"
                );
                update.bind(8, patch.stock.value_or(current.stock));
                update.bind(1, id).bind(2, std::string_view(patch.title.value_or(current.title)));
                update.bind(3, std::string_view(slug_after(patch.title, "product", id, current.slug)));
                update.bind(4, patch.price.value_or(current.price));
                update.bind(
                    5, std::string_view(patch.description ? *patch.description : current.description)
                );
                update.bind(6, patch.category_id.value_or(current.product_category.id))
                    .bind(7, detail::now_ms());
                if (auto written = write_slugged(update); !written) {
                    return written.error();
                }
                if (patch.images) {
                    replace_images(w, id, *patch.images);
                }
                return product_by_id(w, id);
            }
        );
    }

    core::result<void> delete_product(std::int64_t id) override {
        return recorded(
            core::row_table::products, id, db_->delete_row("products", id, core::errc::seed_read_only)
        );
    }

    core::result<core::category> create_category(const core::category_draft& draft) override {
        auto created = db_->write([&](sqlite_connection& w) -> core::result<core::category> {
            const std::int64_t id = next_id_of(w, "categories");
            auto insert = w.prepare(
                "INSERT INTO categories (id, name, slug, image, created_at, updated_at) VALUES "
                "(?1,?2,?3,?4,?5,?5)"
            );
            insert.bind(1, id).bind(2, std::string_view(draft.name));
            insert.bind(3, std::string_view(detail::slug_for(draft.name, "category", id)));
            insert.bind(4, std::string_view(draft.image)).bind(5, detail::now_ms());
            if (auto written = write_slugged(insert); !written) {
                return written.error();
            }
            auto created = category_by_id(w, id);
            return created;
        });
        return recorded(core::row_table::categories, std::move(created));
    }

    core::result<core::category> update_category(std::int64_t id, const core::category_patch& patch)
        override {
        return change_catalogue_row(
            core::row_table::categories,
            category_by_id,
            id,
            [&](sqlite_connection& w, const core::category& current) -> core::result<core::category> {
                auto update = w.prepare(
                    "UPDATE categories SET name = ?2, slug = ?3, image = ?4, updated_at = ?5 WHERE id = ?1"
                );
                update.bind(1, id).bind(2, std::string_view(patch.name.value_or(current.name)));
                update.bind(3, std::string_view(slug_after(patch.name, "category", id, current.slug)));
                update.bind(4, std::string_view(patch.image ? *patch.image : current.image))
                    .bind(5, detail::now_ms());
                if (auto written = write_slugged(update); !written) {
                    return written.error();
                }
                return category_by_id(w, id);
            }
        );
    }

    core::result<void> delete_category(std::int64_t id) override {
        // errc::in_use while products still reference it
        return recorded(
            core::row_table::categories, id, db_->delete_row("categories", id, core::errc::seed_read_only)
        );
    }

    std::uint64_t revision() const override { return db_->catalogue_changes.revision(); }

    core::result<core::row_changes> changes_since(std::uint64_t since) const override {
        return db_->catalogue_changes.changes_since(since);
    }

  private:
    // A catalogue write that changes the row `find(w, id)` reads, as `change(w, row)`: errc::not_found, or
    // errc::seed_read_only for seed rows (read-only); a success records row `id` of `table`.
    template <class Find, class Change>
    auto change_catalogue_row(core::row_table table, Find find, std::int64_t id, Change&& change)
        -> decltype(change(std::declval<sqlite_connection&>(), *find(std::declval<sqlite_connection&>(), id))
        ) {
        return recorded(table, id, db_->write([&](sqlite_connection& w) -> decltype(change(w, *find(w, id))) {
            const auto current = detail::writable(find(w, id), is_seed, core::errc::seed_read_only);
            if (!current) {
                return current.error();
            }
            return change(w, *current);
        }));
    }

    // A committed write's answer, after recording row `id` of `table` in the journal when it succeeded
    // (once committed, so a cache built before the write holds an older revision).
    template <class Answer>
    Answer recorded(core::row_table table, std::int64_t id, Answer answer) {
        if (answer) {
            db_->record_after_commit(db_->catalogue_changes, table, id);
        }
        return answer;
    }
    template <class Item>
    core::result<Item> recorded(core::row_table table, core::result<Item> created) {
        if (created) {
            db_->record_after_commit(db_->catalogue_changes, table, created->id);
        }
        return created;
    }

    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<catalogue_store> make_sqlite_catalogue_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
) {
    return std::make_unique<sqlite_catalogue_store>(std::move(db), categories, products);
}

namespace detail {

void write_catalogue_seed(
    sqlite_connection& db,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
) {
    auto insert_category = db.prepare(
        "INSERT INTO categories (id, name, slug, image, created_at, updated_at, seed) VALUES "
        "(?1,?2,?3,?4,?5,?6,?7)"
    );
    for (const auto& c : categories) {
        insert_category.bind(1, c.id).bind(2, std::string_view(c.name)).bind(3, std::string_view(c.slug));
        insert_category.bind(4, std::string_view(c.image)).bind(5, c.created_at).bind(6, c.updated_at);
        insert_category.bind(7, static_cast<std::int64_t>(c.seed));
        (void)insert_category.step();
        insert_category.reset();
    }
    auto insert_product = db.prepare(
        "INSERT INTO products (id, title, slug, price, description, category_id, created_at, updated_at, "
        "seed, stock) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"
    );
    for (const auto& p : products) {
        insert_product.bind(1, p.id).bind(2, std::string_view(p.title)).bind(3, std::string_view(p.slug));
        insert_product.bind(4, p.price).bind(5, std::string_view(p.description));
        insert_product.bind(6, p.product_category.id).bind(7, p.created_at).bind(8, p.updated_at);
        insert_product.bind(9, static_cast<std::int64_t>(p.seed)).bind(10, p.stock);
        (void)insert_product.step();
        insert_product.reset();
        add_images(db, p.id, p.images);  // the seed goes into emptied tables
    }
    sync_title_index(db, 1);  // the seed's titles indexed in its own transaction (a reset's too)
}

}  // namespace detail

}  // namespace storefront::storage
