// pg_aggregate: lazy schema and seed set-up per store, its listener subscription and revision.

#include "postgres/aggregate.hpp"

#include "common/seed_once.hpp"
#include "postgres/schema.hpp"
#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

pg_aggregate::pg_aggregate(
    const std::string& dsn, std::size_t pool_size, std::string name, seed_writer seed, bool listen
)
    : pool_(shared_pg_pool(dsn, pool_size)),
      name_(std::move(name)),
      channel_("storefront_" + name_),
      seed_(std::move(seed)) {
    if (listen) {
        subscription_ = pool_->listener().subscribe(channel_, revision_);
    }
    try {
        (void)connection();                 // migrate and seed now when the database is there
    } catch (const storage_unavailable&) {  // else at the first call that finds it reachable
    }
}

pg_aggregate::~pg_aggregate() {
    if (subscription_ != 0) {
        pool_->listener().unsubscribe(subscription_);
    }
}

pg_pool::lease pg_aggregate::connection() {
    auto conn = pool_->borrow();
    if (ready_.load(std::memory_order_acquire)) {
        return conn;
    }
    std::lock_guard lock(ready_mutex_);
    if (!ready_.load(std::memory_order_relaxed)) {
        pool_->ensure_schema(*conn);
        if (seed_) {
            seed_once<pg_connection>(*conn, name_, [&](pg_connection& c) {
                seed_(c);
                (void)c.exec("SELECT pg_notify($1, 'seed')", pg_params().add(channel_));
            });
        }
        ready_.store(true, std::memory_order_release);
    }
    return conn;
}

void pg_aggregate::notify(pg_connection& conn) const {
    (void)conn.exec("SELECT pg_notify($1, '')", pg_params().add(channel_));
}

void pg_aggregate::lock(pg_connection& conn) const {
    (void)conn.exec("SELECT pg_advisory_xact_lock(hashtext($1))", pg_params().add(channel_));
}

core::result<void> lock_writable_row(
    pg_connection& db, std::string_view table, std::int64_t id, core::errc seed_error
) {
    const auto r =
        db.exec("SELECT seed FROM " + std::string(table) + " WHERE id = $1 FOR UPDATE", pg_params().add(id));
    if (r.empty()) {
        return core::errc::not_found;
    }
    if (r.boolean(0, 0)) {
        return seed_error;
    }
    return {};
}

}  // namespace storefront::storage::detail
