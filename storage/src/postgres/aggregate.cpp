// pg_aggregate: lazy schema and seed set-up per store, its listener subscription, and its journal of changed
// rows fed by own commits and by notification payloads ("products 12").

#include "postgres/aggregate.hpp"

#include <charconv>
#include <string>

#include "common/budget.hpp"
#include "common/found.hpp"
#include "common/next_id.hpp"
#include "common/random_name.hpp"
#include "common/seed_once.hpp"
#include "postgres/schema.hpp"
#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

pg_aggregate::pg_aggregate(
    const pg_target& target, std::size_t pool_size, std::string name, seed_writer seed, bool listen
)
    : pool_(shared_pg_pool(target, pool_size)),
      name_(std::move(name)),
      // A channel per schema: a sandbox's writes must not refresh the caches of the shared view or of
      // other sandboxes (the advisory lock on the channel's name is then per schema too).
      channel_(pg_channel(target.schema, name_)),
      origin_(random_name()),
      seed_(std::move(seed)) {
    if (listen) {
        subscription_ = pool_->listener().subscribe(channel_, [this](auto payload) { heard(payload); });
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

namespace {

constexpr std::string_view table_names[] = {"products", "categories", "users"};  // by core::row_table

}  // namespace

std::string pg_aggregate::payload_of(std::optional<core::row_change> row) const {
    if (!row) {
        return {};
    }
    return std::string(table_names[static_cast<std::size_t>(row->table)]) + ' ' + std::to_string(row->id) +
           ' ' + origin_;
}

void pg_aggregate::notify(pg_connection& conn, std::optional<core::row_change> row) const {
    (void
    )conn.exec("SELECT pg_notify($1, $2)", pg_params().add(channel_).add(payload_of(row)), pg_plan::kept);
}

std::optional<core::row_table> pg_aggregate::row_table_of(std::string_view table) {
    for (std::size_t i = 0; i < std::size(table_names); ++i) {
        if (table == table_names[i]) {
            return static_cast<core::row_table>(i);
        }
    }
    return std::nullopt;
}

void pg_aggregate::record(std::optional<core::row_change> row) {
    if (row) {
        journal_.record(row->table, row->id);
    } else {
        journal_.record_unknown();
    }
}

void pg_aggregate::heard(std::optional<std::string_view> payload) {
    // "products 12 <origin>" (or "products 12" from an instance of an older version) names a row; anything
    // else ('', 'seed', 'reset', an older instance's empty payload, or missed notifications) does not, and
    // makes caches reread everything. Our own notifications were recorded at commit.
    std::optional<core::row_change> row;
    if (payload) {
        const auto space = payload->find(' ');
        const auto table = row_table_of(payload->substr(0, space));
        std::int64_t id = 0;
        if (table && space != std::string_view::npos) {
            auto digits = payload->substr(space + 1);
            if (const auto origin_at = digits.find(' '); origin_at != std::string_view::npos) {
                if (digits.substr(origin_at + 1) == origin_) {
                    return;
                }
                digits = digits.substr(0, origin_at);
            }
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
            if (ec == std::errc{} && end == digits.data() + digits.size()) {
                row = core::row_change{*table, id};
            }
        }
    }
    record(row);
}

pg_batch* pg_aggregate::batch() {
    if (write_batch::open_on_this_thread() == nullptr) {
        return nullptr;
    }
    if (!ready_.load(std::memory_order_acquire)) {
        (void)connection();  // migrates and seeds on a connection of its own, outside the batch
    }
    return pg_batch::of_this_thread(*pool_);
}

void pg_aggregate::undo_savepoint(pg_connection& conn, const std::string& savepoint) {
    (void)conn.exec("ROLLBACK TO SAVEPOINT " + savepoint);
}

void pg_aggregate::lock(pg_connection& conn) const {
    (void)conn.exec("SELECT pg_advisory_xact_lock(hashtext($1))", pg_params().add(channel_));
}

std::size_t pg_aggregate::count_rows(std::string_view table) {
    const auto r = connection()->exec("SELECT count(*) FROM " + std::string(table));
    return static_cast<std::size_t>(r.int64(0, 0));
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

core::result<void> pg_aggregate::delete_row(std::string_view table, std::int64_t id, core::errc seed_error) {
    return write_row(table, id, seed_error, [&](pg_connection& db) -> core::result<void> {
        const auto sql = "DELETE FROM " + std::string(table) + " WHERE id = $1";
        if (db.exec_or_violation(sql, pg_params().add(id)) == pg_violation::foreign_key) {
            return core::errc::in_use;
        }
        return {};
    });
}

core::result<void> pg_aggregate::remove_row(std::string_view table, std::int64_t id) {
    return write([&](pg_connection& db) {
        const auto sql = "DELETE FROM " + std::string(table) + " WHERE id = $1";
        return found_any(db.exec(sql, pg_params().add(id)).affected() > 0);
    });
}

core::result<void> pg_aggregate::reserve_bytes(
    pg_connection& conn, std::string_view table, std::size_t adding, std::size_t max_bytes
) const {
    lock(conn);
    const auto used = static_cast<std::size_t>(
        conn.exec("SELECT coalesce(sum(octet_length(bytes)), 0)::bigint FROM " + std::string(table))
            .int64(0, 0)
    );
    if (!fits_budget(used, adding, max_bytes)) {
        return core::errc::storage_full;
    }
    return {};
}

std::int64_t next_free_id(pg_connection& db, std::string_view table) {
    return next_id(db.exec("SELECT coalesce(max(id), 0) FROM " + std::string(table)).int64(0, 0));
}

core::result<void> exec_write(
    pg_connection& db, std::string_view sql, const pg_params& params, pg_rows* rows, pg_plan plan
) {
    switch (db.exec_or_violation(sql, params, rows, plan)) {
        case pg_violation::unique:
            return core::errc::conflict;
        case pg_violation::foreign_key:
            return core::errc::invalid_reference;
        case pg_violation::none:
            break;
    }
    return {};
}

}  // namespace storefront::storage::detail
