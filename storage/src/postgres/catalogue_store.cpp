// pg_catalogue_store: filtered pages in one SQL statement, writes as single transactions whose constraint
// violations (UNIQUE slug, FOREIGN KEY category) become errc values, and the seed writer.

#include "storage/catalogue_store.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/found.hpp"
#include "common/slug.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/reset.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;
using detail::pg_plan;
using detail::pg_rows;

constexpr std::string_view product_select = R"sql(
SELECT p.id, p.title, p.slug, p.price, p.description, p.created_at, p.updated_at, p.seed,
       c.id, c.name, c.slug, c.image, c.created_at, c.updated_at, c.seed, p.images, p.stock
FROM products p JOIN categories c ON c.id = p.category_id )sql";

constexpr std::string_view category_select =
    "SELECT id, name, slug, image, created_at, updated_at, seed FROM categories ";

// The filter as conditions on $1..$6 (NULL: not set), so one statement serves every combination (the
// values are known when it is planned, so unset conditions fold away). The title match folds ASCII case
// only, whatever the database's locale (COLLATE "C"); the LIKE before it is the same test in the form the
// trigram index (schema.cpp) answers, with LIKE's wildcards escaped.
constexpr std::string_view filter_where = R"sql(
WHERE ($1::text IS NULL OR lower(p.title COLLATE "C") LIKE '%' || replace(replace(replace(
           lower($1::text COLLATE "C"), '\', '\\'), '%', '\%'), '_', '\_') || '%')
  AND ($1::text IS NULL OR strpos(lower(p.title COLLATE "C"), lower($1::text COLLATE "C")) > 0)
  AND ($2::float8 IS NULL OR (p.price BETWEEN $2::float8 - 0.01 AND $2::float8 + 0.01
                               AND abs(p.price - $2::float8) < 0.005))
  AND ($3::float8 IS NULL OR p.price >= $3::float8 - 0.005)
  AND ($4::float8 IS NULL OR p.price <= $4::float8 + 0.005)
  AND ($5::bigint IS NULL OR p.category_id = $5::bigint)
  AND ($6::text IS NULL OR c.slug = $6::text) )sql";

pg_params filter_params(const core::product_filter& f) {
    pg_params p;
    p.add(f.title).add(f.price).add(f.price_min).add(f.price_max).add(f.category_id).add(f.category_slug);
    return p;
}

core::category category_at(const detail::pg_row& row, int first) {
    core::category c;
    row.read(first, c.id, c.name, c.slug, c.image, c.created_at, c.updated_at, c.seed);
    return c;
}

core::product product_at(const detail::pg_row& row) {
    core::product p;
    row.read(0, p.id, p.title, p.slug, p.price, p.description, p.created_at, p.updated_at, p.seed);
    p.product_category = category_at(row, 8);
    p.images = detail::parse_array_no_nulls(row.text(15));
    row.read(16, p.stock);
    return p;
}

core::category category_of_row(const detail::pg_row& row) {
    return category_at(row, 0);
}

std::vector<core::product> query_products(
    pg_connection& db, std::string_view where, const pg_params& params
) {
    return detail::read_rows(db.exec(std::string(product_select) + std::string(where), params), product_at);
}

core::result<core::product> one_product(pg_connection& db, std::int64_t id) {
    return detail::first_or_not_found(query_products(db, "WHERE p.id = $1", pg_params().add(id)));
}

core::result<core::category> one_category(
    pg_connection& db, std::string_view where, const pg_params& params
) {
    return detail::first_or_not_found(
        detail::read_rows(db.exec(std::string(category_select) + std::string(where), params), category_of_row)
    );
}

std::int64_t next_id(pg_connection& db, std::string_view table) {
    return db.exec("SELECT nextval(pg_get_serial_sequence($1, 'id'))", pg_params().add(table), pg_plan::kept)
        .int64(0, 0);
}

class pg_catalogue_store final : public detail::pg_revisioned<catalogue_store> {
  public:
    // Uses the process's pool for `target`; an empty database gets `categories` and `products` (the seed)
    // once.
    pg_catalogue_store(
        const pg_target& target,
        std::size_t pool_size,
        std::vector<core::category> categories,
        std::vector<core::product> products
    )
        : pg_revisioned(
              target,
              pool_size,
              "catalogue",
              [categories = std::move(categories), products = std::move(products)](pg_connection& conn) {
                  detail::write_catalogue_seed(conn, categories, products);
              },
              true
          ) {}

    std::vector<core::product> list_products(
        const core::product_filter& filter, const core::page_request& page
    ) const override {
        auto params = filter_params(filter);
        constexpr std::size_t most = std::numeric_limits<std::int64_t>::max();
        params.add(static_cast<std::int64_t>(std::min(page.limit, most)));
        params.add(static_cast<std::int64_t>(std::min(page.offset, most)));
        auto db = aggregate_.connection();
        return query_products(*db, std::string(filter_where) + "ORDER BY p.id LIMIT $7 OFFSET $8", params);
    }

    std::size_t count_products(const core::product_filter& filter) const override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "SELECT count(*) FROM products p JOIN categories c ON c.id = p.category_id " +
                std::string(filter_where),
            filter_params(filter)
        );
        return static_cast<std::size_t>(r.int64(0, 0));
    }

    core::result<core::product> find_product(std::int64_t id) const override {
        auto db = aggregate_.connection();
        return one_product(*db, id);
    }

    std::vector<core::product> find_products(const std::vector<std::int64_t>& ids) const override {
        std::vector<std::string> texts;
        texts.reserve(ids.size());
        for (const auto id : ids) {
            texts.push_back(std::to_string(id));
        }
        auto db = aggregate_.connection();
        return query_products(
            *db, "WHERE p.id = ANY($1::bigint[]) ORDER BY p.id", pg_params().add(detail::format_array(texts))
        );
    }

    core::result<core::product> find_product_by_slug(std::string_view slug) const override {
        auto db = aggregate_.connection();
        return detail::first_or_not_found(query_products(*db, "WHERE p.slug = $1", pg_params().add(slug)));
    }

    core::result<std::vector<core::product>> related_products(std::int64_t id) const override {
        auto db = aggregate_.connection();
        const auto product = one_product(*db, id);
        if (!product) {
            return product.error();
        }
        return query_products(
            *db,
            "WHERE p.category_id = $1 AND p.id <> $2 ORDER BY p.id",
            pg_params().add(product->product_category.id).add(id)
        );
    }

    std::vector<core::category> list_categories() const override {
        auto db = aggregate_.connection();
        return detail::read_rows(db->exec(std::string(category_select) + "ORDER BY id"), category_of_row);
    }

    core::result<core::category> find_category(std::int64_t id) const override {
        auto db = aggregate_.connection();
        return one_category(*db, "WHERE id = $1", pg_params().add(id));
    }

    core::result<core::category> find_category_by_slug(std::string_view slug) const override {
        auto db = aggregate_.connection();
        return one_category(*db, "WHERE slug = $1", pg_params().add(slug));
    }

    core::result<core::product> create_product(const core::product_draft& draft) override {
        return aggregate_.write_created(
            core::row_table::products,
            [&](pg_connection& db) -> core::result<core::product> {
                core::product row;
                row.title = draft.title;
                row.price = draft.price;  // sent as its shortest round-trip text: stored exactly
                row.description = draft.description;
                row.images = draft.images;
                row.stock = draft.stock;
                row.created_at = row.updated_at = detail::now_ms();
                // One round trip: the id is drawn inside the insert (a title with no letter or digit gets the
                // slug "product-<id>", as slug_for gives), which answers it with its category; the row
                // itself is the one written, not read back.
                auto slug = core::make_slug(row.title);
                pg_rows category;
                const auto written = detail::exec_write(
                    db,
                    "WITH new AS (SELECT nextval(pg_get_serial_sequence('products', 'id')) AS id), "
                    "created AS (INSERT INTO products (id, title, slug, price, description, "
                    "category_id, images, created_at, updated_at, stock) "
                    "SELECT new.id, $1::text, coalesce($2::text, 'product-' || new.id), $3::double "
                    "precision, "
                    "$4::text, $5::bigint, $6::text[], $7::bigint, $7::bigint, $8::bigint FROM new "
                    "RETURNING id, slug, category_id) "
                    "SELECT created.id, created.slug, "
                    "c.id, c.name, c.slug, c.image, c.created_at, c.updated_at, c.seed "
                    "FROM categories c JOIN created ON c.id = created.category_id",
                    pg_params()
                        .add(row.title)
                        .add(slug.empty() ? std::nullopt : std::optional(std::move(slug)))
                        .add(row.price)
                        .add(row.description)
                        .add(draft.category_id)
                        .add(detail::format_array(row.images))
                        .add(row.created_at)
                        .add(row.stock),
                    &category,
                    pg_plan::kept  // one row, and its category by key (an index scan at any size: EXPLAIN)
                );
                if (!written) {
                    return written.error();  // a taken slug, or a category that is not there
                }
                if (category.empty()) {  // cannot happen (the foreign key held it), but never read past it
                    return core::errc::invalid_reference;
                }
                row.id = category.int64(0, 0);
                row.slug = std::string(category.text(0, 1));
                row.product_category = category_at(detail::pg_row(category, 0), 2);
                return row;
            }
        );
    }

    core::result<core::product> update_product(std::int64_t id, const core::product_patch& patch) override {
        return write_catalogue_row("products", id, [&](pg_connection& db) -> core::result<core::product> {
            // COALESCE keeps the fields the patch does not give; a new title also gives a new slug.
            const auto written = detail::exec_write(
                db,
                "UPDATE products SET title = coalesce($2, title), slug = coalesce($3, slug), "
                "price = coalesce($4, price), description = coalesce($5, description), "
                "category_id = coalesce($6, category_id), images = coalesce($7::text[], images), "
                "updated_at = $8, stock = coalesce($9, stock) WHERE id = $1",
                pg_params()
                    .add(id)
                    .add(patch.title)
                    .add(
                        patch.title ? std::optional(detail::slug_for(*patch.title, "product", id))
                                    : std::nullopt
                    )
                    .add(patch.price)
                    .add(patch.description)
                    .add(patch.category_id)
                    .add(patch.images ? std::optional(detail::format_array(*patch.images)) : std::nullopt)
                    .add(detail::now_ms())
                    .add(patch.stock)
            );
            if (!written) {
                return written.error();
            }
            return one_product(db, id);
        });
    }

    core::result<void> delete_product(std::int64_t id) override {
        return aggregate_.delete_row("products", id, core::errc::seed_read_only);
    }

    core::result<core::category> create_category(const core::category_draft& draft) override {
        return aggregate_.write_created(
            core::row_table::categories,
            [&](pg_connection& db) -> core::result<core::category> {
                const auto id = next_id(db, "categories");
                const auto written = detail::exec_write(
                    db,
                    "INSERT INTO categories (id, name, slug, image, created_at, updated_at) "
                    "VALUES ($1, $2, $3, $4, $5, $5)",
                    pg_params()
                        .add(id)
                        .add(draft.name)
                        .add(detail::slug_for(draft.name, "category", id))
                        .add(draft.image)
                        .add(detail::now_ms())
                );
                if (!written) {
                    return written.error();  // the slug is taken
                }
                return one_category(db, "WHERE id = $1", pg_params().add(id));
            }
        );
    }

    core::result<core::category> update_category(std::int64_t id, const core::category_patch& patch)
        override {
        return write_catalogue_row("categories", id, [&](pg_connection& db) -> core::result<core::category> {
            const auto written = detail::exec_write(
                db,
                "UPDATE categories SET name = coalesce($2, name), slug = coalesce($3, slug), "
                "image = coalesce($4, image), updated_at = $5 WHERE id = $1",
                pg_params()
                    .add(id)
                    .add(patch.name)
                    .add(
                        patch.name ? std::optional(detail::slug_for(*patch.name, "category", id))
                                   : std::nullopt
                    )
                    .add(patch.image)
                    .add(detail::now_ms())
            );
            if (!written) {
                return written.error();
            }
            return one_category(db, "WHERE id = $1", pg_params().add(id));
        });
    }

    core::result<void> delete_category(std::int64_t id) override {
        // errc::in_use while products still reference it
        return aggregate_.delete_row("categories", id, core::errc::seed_read_only);
    }

  private:
    // A write that changes row `id` of `table` (products or categories): seed rows are read-only.
    template <class Change>
    auto write_catalogue_row(std::string_view table, std::int64_t id, Change&& change)
        -> decltype(change(std::declval<pg_connection&>())) {
        return aggregate_.write_row(table, id, core::errc::seed_read_only, std::forward<Change>(change));
    }
};

}  // namespace

std::unique_ptr<catalogue_store> make_pg_catalogue_store(
    const pg_target& target,
    std::size_t pool_size,
    std::vector<core::category> categories,
    std::vector<core::product> products
) {
    return std::make_unique<pg_catalogue_store>(
        target, pool_size, std::move(categories), std::move(products)
    );
}

namespace detail {

void write_catalogue_seed(
    pg_connection& conn,
    const std::vector<core::category>& categories,
    const std::vector<core::product>& products
) {
    for (const auto& c : categories) {
        (void)conn.exec(
            "INSERT INTO categories (id, name, slug, image, created_at, updated_at, seed) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            pg_params()
                .add(c.id)
                .add(c.name)
                .add(c.slug)
                .add(c.image)
                .add(c.created_at)
                .add(c.updated_at)
                .add(c.seed)
        );
    }
    for (const auto& p : products) {
        (void)conn.exec(
            "INSERT INTO products (id, title, slug, price, description, category_id, images, created_at, "
            "updated_at, seed, stock) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            pg_params()
                .add(p.id)
                .add(p.title)
                .add(p.slug)
                .add(p.price)
                .add(p.description)
                .add(p.product_category.id)
                .add(format_array(p.images))
                .add(p.created_at)
                .add(p.updated_at)
                .add(p.seed)
                .add(p.stock)
        );
    }
    continue_ids_after_seed(conn, "categories");
    continue_ids_after_seed(conn, "products");
}

}  // namespace detail

}  // namespace storefront::storage
