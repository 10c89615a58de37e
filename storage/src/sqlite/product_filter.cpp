// The SQLite product filter: conditions for the filters set only, the exact substring test as before, and
// in front of it an FTS5 trigram lookup that narrows the rows when the title has at least three characters.

#include "sqlite/product_filter.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace storefront::storage::detail {

namespace {

// A trigram index of titles, case-insensitive (its case folding includes ASCII's, so every title whose
// ASCII-lowered text contains the ASCII-lowered pattern is among its matches; the exact test then drops
// the rest).
constexpr std::string_view title_index = R"sql(
CREATE VIRTUAL TABLE product_titles USING fts5(title, tokenize = 'trigram');
)sql";

// Triggers do not write the index itself: FTS5 writes its pending rows out as a new segment at every
// savepoint and statement journal, which a group commit opens per change, so indexing in the trigger cost
// a segment (and its merges) per create, a third of a create's CPU. They note the product's id in
// product_titles_stale instead; sync_title_index folds those rows in when enough have gathered, and a
// title lookup reads the stale ids as candidates too, so the index never needs to be in step for a
// filter to be right (the exact test decides).
constexpr std::string_view title_triggers = R"sql(
CREATE TABLE IF NOT EXISTS product_titles_stale (id INTEGER PRIMARY KEY);
DROP TRIGGER IF EXISTS product_titles_insert;
DROP TRIGGER IF EXISTS product_titles_delete;
DROP TRIGGER IF EXISTS product_titles_update;
CREATE TRIGGER IF NOT EXISTS product_titles_stale_insert AFTER INSERT ON products BEGIN
    INSERT OR IGNORE INTO product_titles_stale (id) VALUES (new.id);
END;
CREATE TRIGGER IF NOT EXISTS product_titles_stale_delete AFTER DELETE ON products BEGIN
    INSERT OR IGNORE INTO product_titles_stale (id) VALUES (old.id);
END;
CREATE TRIGGER IF NOT EXISTS product_titles_stale_update AFTER UPDATE OF id, title ON products BEGIN
    INSERT OR IGNORE INTO product_titles_stale (id) VALUES (old.id);
    INSERT OR IGNORE INTO product_titles_stale (id) VALUES (new.id);
END;
CREATE INDEX IF NOT EXISTS products_by_price ON products(price);
)sql";

// The phrase query for the title index, or nullopt when the index cannot narrow the rows: a trigram
// query needs three characters, and only printable ASCII is sent so the index folds exactly the bytes
// the exact test folds (other titles fall back to the exact test alone, as before the index).
std::optional<std::string> title_query(const std::optional<std::string>& title) {
    if (!title || title->size() < 3) {
        return std::nullopt;
    }
    const bool printable =
        std::all_of(title->begin(), title->end(), [](char c) { return c >= 0x20 && c < 0x7f; });
    if (!printable) {
        return std::nullopt;
    }
    std::string phrase = "\"";
    for (const char c : *title) {
        phrase += c;
        if (c == '"') {
            phrase += '"';
        }
    }
    phrase += '"';
    return phrase;
}

}  // namespace

std::string product_filter_clauses(const core::product_filter& f) {
    std::string sql;
    if (title_query(f.title)) {
        // The index first (CROSS JOIN keeps that order): a title nowhere in it costs one index lookup.
        sql +=
            " FROM (SELECT rowid AS id FROM product_titles WHERE product_titles MATCH ?9"
            " UNION SELECT id FROM product_titles_stale) t"
            " CROSS JOIN products p JOIN categories c ON c.id = p.category_id WHERE p.id = t.id";
    } else {
        sql += " FROM products p JOIN categories c ON c.id = p.category_id WHERE 1";
    }
    // Each set filter's condition, on the parameter bind_product_filter gives its value (?1 to ?6).
    const std::pair<bool, std::string_view> conditions[] = {
        {f.title.has_value(), " AND instr(lower(p.title), lower(?1)) > 0"},
        // The BETWEEN is a wider range the price index can use; the abs() test decides, as before.
        {f.price.has_value(), " AND p.price BETWEEN ?2 - 0.01 AND ?2 + 0.01 AND abs(p.price - ?2) < 0.005"},
        {f.price_min.has_value(), " AND p.price >= ?3 - 0.005"},
        {f.price_max.has_value(), " AND p.price <= ?4 + 0.005"},
        {f.category_id.has_value(), " AND p.category_id = ?5"},
        {f.category_slug.has_value(), " AND c.slug = ?6"},
    };
    for (const auto& [set, condition] : conditions) {
        if (set) {
            sql += condition;
        }
    }
    return sql + ' ';
}

std::string product_filter_order(const core::product_filter& f) {
    const bool narrowed = f.price || f.price_min || f.price_max || f.category_id || f.category_slug;
    return narrowed ? "ORDER BY +p.id " : "ORDER BY p.id ";
}

void bind_product_filter(sqlite_statement& s, const core::product_filter& f) {
    if (f.title) {
        s.bind(1, std::string_view(*f.title));
    }
    if (f.price) {
        s.bind(2, *f.price);
    }
    if (f.price_min) {
        s.bind(3, *f.price_min);
    }
    if (f.price_max) {
        s.bind(4, *f.price_max);
    }
    if (f.category_id) {
        s.bind(5, static_cast<std::int64_t>(*f.category_id));
    }
    if (f.category_slug) {
        s.bind(6, std::string_view(*f.category_slug));
    }
    if (const auto query = title_query(f.title)) {
        s.bind(9, std::string_view(*query));
    }
}

void create_product_indexes(sqlite_connection& w) {
    bool exists = false;
    {
        auto existing =
            w.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'product_titles'");
        exists = existing.step() == sqlite_statement::step_result::row;
    }
    if (!exists) {
        w.exec(title_index);
        w.exec("INSERT INTO product_titles (rowid, title) SELECT id, title FROM products");
    }
    w.exec(title_triggers);
    sync_title_index(w, 1);
}

void sync_title_index(sqlite_connection& w, std::int64_t at_least) {
    {
        // A plain count(*) of a table: SQLite counts the cells of its b-tree's pages without stepping
        // through rows (hundreds of noted ids per page). Counting up to `at_least` through a LIMIT subquery
        // stepped each row: measured 40,000 instructions per create on the write lane at a backlog of ~150,
        // growing with it up to the limit.
        auto backlog = w.prepare("SELECT count(*) FROM product_titles_stale");
        (void)backlog.step();
        if (backlog.int64(0) < at_least) {
            return;
        }
    }
    w.run("DELETE FROM product_titles WHERE rowid IN (SELECT id FROM product_titles_stale)");
    w.run(
        "INSERT INTO product_titles (rowid, title) SELECT id, title FROM products"
        " WHERE id IN (SELECT id FROM product_titles_stale)"
    );
    w.run("DELETE FROM product_titles_stale");
}

}  // namespace storefront::storage::detail
