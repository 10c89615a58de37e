// sqlite_database: the schema of every aggregate in one file, the write connection, the read pool and the
// process-wide registry that shares them between the stores of one path.

#include "sqlite/database.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/budget.hpp"
#include "common/next_id.hpp"
#include "sqlite/product_filter.hpp"

namespace storefront::storage::detail {

namespace {

// Every aggregate in one file, so reset_to_seed can empty and refill all of them in one transaction. `meta`
// holds one 'seeded:<aggregate>' row per seeded aggregate.
constexpr std::string_view schema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS categories (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, image TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS products (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, price REAL NOT NULL,
    description TEXT NOT NULL, category_id INTEGER NOT NULL REFERENCES categories(id),
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0,
    stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0));
CREATE INDEX IF NOT EXISTS products_by_category ON products(category_id);
CREATE TABLE IF NOT EXISTS product_images (
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    url TEXT NOT NULL, PRIMARY KEY (product_id, position));
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT NOT NULL,
    role TEXT NOT NULL, avatar TEXT NOT NULL, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL, seed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS files (
    name TEXT PRIMARY KEY, original_name TEXT NOT NULL, media_type TEXT NOT NULL, size INTEGER NOT NULL,
    bytes BLOB NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pets (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, status INTEGER, has_category INTEGER NOT NULL,
    category_id INTEGER, category_name TEXT);
CREATE TABLE IF NOT EXISTS pet_photos (
    pet_id INTEGER NOT NULL REFERENCES pets(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    url TEXT NOT NULL, PRIMARY KEY (pet_id, position));
CREATE TABLE IF NOT EXISTS pet_tags (
    pet_id INTEGER NOT NULL REFERENCES pets(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    tag_id INTEGER, name TEXT, PRIMARY KEY (pet_id, position));
CREATE INDEX IF NOT EXISTS pet_tags_by_name ON pet_tags(name);
CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY, pet_id INTEGER NOT NULL, quantity INTEGER NOT NULL, ship_date INTEGER,
    status INTEGER NOT NULL, complete INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pet_users (
    username TEXT PRIMARY KEY, id INTEGER NOT NULL, first_name TEXT, last_name TEXT, email TEXT, phone TEXT,
    user_status INTEGER, password_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pet_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT, pet_id INTEGER NOT NULL, media_type TEXT NOT NULL,
    size INTEGER NOT NULL, bytes BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS pet_images_by_pet ON pet_images(pet_id);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, generation INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions(expires_at);
CREATE TABLE IF NOT EXISTS carts (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL UNIQUE, coupon TEXT, created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cart_lines (
    cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    product_id INTEGER NOT NULL, quantity INTEGER NOT NULL, PRIMARY KEY (cart_id, position));
CREATE TABLE IF NOT EXISTS shop_orders (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, status TEXT NOT NULL, subtotal INTEGER NOT NULL,
    discount INTEGER NOT NULL, shipping INTEGER NOT NULL, total INTEGER NOT NULL, coupon TEXT,
    name TEXT NOT NULL, line1 TEXT NOT NULL, line2 TEXT, city TEXT NOT NULL, postal_code TEXT NOT NULL,
    country TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS shop_orders_by_user ON shop_orders(user_id);
CREATE INDEX IF NOT EXISTS shop_orders_by_expiry ON shop_orders(status, expires_at);
CREATE TABLE IF NOT EXISTS order_items (
    order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    product_id INTEGER NOT NULL, title TEXT NOT NULL, unit_price INTEGER NOT NULL, quantity INTEGER NOT NULL,
    line_total INTEGER NOT NULL, PRIMARY KEY (order_id, position));
CREATE TABLE IF NOT EXISTS payments (
    id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL, amount INTEGER NOT NULL, status TEXT NOT NULL, brand TEXT NOT NULL,
    last4 TEXT NOT NULL, failure_code TEXT, next_action TEXT, created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS payments_by_order ON payments(order_id);
CREATE TABLE IF NOT EXISTS idempotency_keys (
    user_id INTEGER NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, in_progress INTEGER NOT NULL,
    status INTEGER NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key));
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions(user_id);
)sql";

// A file made before products had stock (issue 42) gains the column; every product then gets the seed's
// stock formula (seed/catalogue.hpp: (id * 7) % 25 + 5), so an upgraded file can sell at once.
void add_stock_column(sqlite_connection& db) {
    auto columns = db.prepare("SELECT 1 FROM pragma_table_info('products') WHERE name = 'stock'");
    if (columns.step() == sqlite_statement::step_result::row) {
        return;
    }
    db.exec("ALTER TABLE products ADD COLUMN stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0)");
    db.exec("UPDATE products SET stock = (id * 7) % 25 + 5");
}

// The registry key: the same file under another spelling must share the same connections.
std::string key_of(const std::string& path) {
    std::error_code ignored;
    const auto canonical = std::filesystem::weakly_canonical(path, ignored);
    return canonical.empty() ? path : canonical.string();
}

}  // namespace

std::shared_ptr<sqlite_database> sqlite_database::open(
    const std::string& path, const storage_config& config
) {
    static std::mutex registry_mutex;
    static std::map<std::string, std::weak_ptr<sqlite_database>> registry;
    const std::string key = key_of(path);
    std::lock_guard lock(registry_mutex);
    if (auto existing = registry[key].lock()) {
        return existing;
    }
    auto db = std::make_shared<sqlite_database>(path, config);
    registry[key] = db;
    return db;
}

sqlite_database::sqlite_database(const std::string& path, const storage_config& config)
    : writer_(std::make_unique<sqlite_connection>(path, config.busy_timeout)) {
    {
        sqlite_connection::transaction tx(*writer_);
        writer_->exec(schema);
        add_stock_column(*writer_);
        create_product_indexes(*writer_);
        tx.commit();
    }
    commits_.before_commit([](sqlite_connection& w) { sync_title_index(w, title_backlog_limit); });
    // Opened after the schema exists, so their first statements see it.
    const std::size_t readers = std::max<std::size_t>(config.pool_size, 1);
    for (std::size_t i = 0; i < readers; ++i) {
        idle_readers_.push_back(std::make_unique<sqlite_connection>(path, config.busy_timeout, true));
    }
}

sqlite_database::read_lease::read_lease(const sqlite_database& owner, std::unique_ptr<sqlite_connection> db)
    : owner_(owner), db_(std::move(db)) {}

sqlite_database::read_lease::~read_lease() {
    {
        std::lock_guard lock(owner_.pool_mutex_);
        owner_.idle_readers_.push_back(std::move(db_));
    }
    owner_.pool_ready_.notify_one();
}

sqlite_database::read_lease sqlite_database::reader() const {
    std::unique_lock lock(pool_mutex_);
    pool_ready_.wait(lock, [&] { return !idle_readers_.empty(); });
    auto db = std::move(idle_readers_.back());
    idle_readers_.pop_back();
    return read_lease(*this, std::move(db));
}

core::result<void> sqlite_database::delete_row(
    std::string_view table, std::int64_t id, core::errc seed_error
) {
    return write([&](sqlite_connection& db) -> core::result<void> {
        auto row = db.prepare("SELECT seed FROM " + std::string(table) + " WHERE id = ?1");
        row.bind(1, id);
        if (row.step() != sqlite_statement::step_result::row) {
            return core::errc::not_found;
        }
        if (row.int64(0) != 0) {
            return seed_error;
        }
        auto remove = db.prepare("DELETE FROM " + std::string(table) + " WHERE id = ?1");
        remove.bind(1, id);
        if (remove.step() == sqlite_statement::step_result::constraint) {
            return core::errc::in_use;
        }
        return {};
    });
}

std::size_t count_rows(const sqlite_database& db, std::string_view table) {
    auto r = db.reader();
    auto s = r->prepare("SELECT count(*) FROM " + std::string(table));
    (void)s.step();
    return static_cast<std::size_t>(s.int64(0));
}

std::int64_t next_free_id(sqlite_connection& db, std::string_view table) {
    auto largest = db.prepare("SELECT coalesce(max(id), 0) FROM " + std::string(table));
    (void)largest.step();
    return next_id(largest.int64(0));
}

core::result<void> reserve_bytes(
    sqlite_connection& db, std::string_view table, std::size_t adding, std::size_t max_bytes
) {
    auto used = db.prepare("SELECT coalesce(sum(size), 0) FROM " + std::string(table));
    (void)used.step();
    if (!fits_budget(static_cast<std::size_t>(used.int64(0)), adding, max_bytes)) {
        return core::errc::storage_full;
    }
    return {};
}

bool claim_seed_marker(sqlite_connection& db, std::string_view aggregate) {
    auto marker = db.prepare("SELECT 1 FROM meta WHERE key = 'seeded:' || ?1");
    marker.bind(1, aggregate);
    if (marker.step() == sqlite_statement::step_result::row) {
        return false;
    }
    marker.reset();
    auto mark = db.prepare("INSERT INTO meta (key) VALUES ('seeded:' || ?1)");
    mark.bind(1, aggregate);
    (void)mark.step();
    return true;
}

}  // namespace storefront::storage::detail
