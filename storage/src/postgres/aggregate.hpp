#pragma once
// What every pg_* store shares: the process's pool for its target (DSN and schema), the schema and the
// aggregate's seed made ready before the first statement (retried on a later call while the database is
// unreachable), the aggregate's NOTIFY channel, and the in-process journal of changed rows (and so the
// revision) that own commits and the listener's notifications (naming the row each write changed) move.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/change_journal.hpp"
#include "core/errc.hpp"
#include "core/row_changes.hpp"
#include "postgres/batch.hpp"
#include "postgres/pool.hpp"

namespace storefront::storage::detail {

// Locks row `id` of `table` (which has a seed column) until the transaction ends, before a write changes or
// deletes it: errc::not_found when there is none, `seed_error` for seed data (read-only).
[[nodiscard]] core::result<void> lock_writable_row(
    pg_connection& db, std::string_view table, std::int64_t id, core::errc seed_error
);

// Runs a write whose constraint violation is an expected answer: errc::conflict for a UNIQUE one (a taken
// slug, e-mail or username), errc::invalid_reference for a FOREIGN KEY one (a category that is not there).
// The transaction is then aborted: the caller returns the error and lets it roll back.
[[nodiscard]] core::result<void> exec_write(
    pg_connection& db,
    std::string_view sql,
    const pg_params& params,
    pg_rows* rows = nullptr,
    pg_plan plan = pg_plan::per_run
);

// Inside a write's transaction, under pg_aggregate::lock(): the id after the largest one in `table` (the
// public petstore's numbering, as in the other backends).
[[nodiscard]] std::int64_t next_free_id(pg_connection& db, std::string_view table);

class pg_aggregate {
  public:
    using seed_writer = std::function<void(pg_connection&)>;

    // `name` is the aggregate ("catalogue"); its channel is pg_channel(target.schema, name). `seed` (may be
    // empty) writes the seed once. With `listen`, revision() also moves when another instance writes.
    pg_aggregate(
        const pg_target& target, std::size_t pool_size, std::string name, seed_writer seed, bool listen
    );
    ~pg_aggregate();
    pg_aggregate(const pg_aggregate&) = delete;
    pg_aggregate& operator=(const pg_aggregate&) = delete;

    // A connection to a database whose schema and seed are in place; throws storage_unavailable.
    [[nodiscard]] pg_pool::lease connection();

    // Inside a write's transaction: tells the other instances (delivered at commit) which row it changed, or
    // that it changed rows nobody names (nullopt).
    void notify(pg_connection& conn, std::optional<core::row_change> row) const;
    // Inside a write's transaction: serialises this aggregate's writers across instances until commit
    // (for "largest id + 1" and byte budgets).
    void lock(pg_connection& conn) const;
    // Inside a write's transaction: lock(), then errc::storage_full unless `adding` more bytes keep the
    // `bytes` column of `table` within `max_bytes` (one budget for every instance).
    [[nodiscard]] core::result<void> reserve_bytes(
        pg_connection& conn, std::string_view table, std::size_t adding, std::size_t max_bytes
    ) const;
    // The end of every write that changed something: NOTIFY naming `row` inside the transaction (delivered
    // at commit), commit, then record `row` in this instance's journal (moving its revision) at once rather
    // than when the notification comes back.
    void commit_write(pg_connection& conn, pg_transaction& tx, std::optional<core::row_change> row) {
        notify(conn, row);
        tx.commit();
        record(row);
    }
    // Moves when this instance commits and when another instance's notification arrives (the echo of an
    // own one carries this aggregate's origin and is skipped: the commit recorded it already).
    [[nodiscard]] std::uint64_t revision() const { return journal_.revision(); }
    // The rows changed after `since` (change_journal::changes_since): errc::not_found after a reset, a
    // reconnect of the listener, or a write that named no row.
    [[nodiscard]] core::result<core::row_changes> changes_since(std::uint64_t since) const {
        return journal_.changes_since(since);
    }

    // One write, one transaction: `change(conn)` runs inside it and its answer decides the end. An answer
    // that is a result with a value, `true`, or a plain value (an add) ends with commit_write; an error or
    // `false` (nothing changed) rolls back, so nobody is told. The rows it changed are not named.
    // On a thread with a storage::write_batch open, the write runs in its own savepoint of the batch's
    // transaction instead and returns before the commit; its notification goes out, and its journal record
    // is made, when the batch commits.
    template <class Change>
    auto write(Change&& change) -> decltype(change(std::declval<pg_connection&>())) {
        return write_naming(std::forward<Change>(change), [](const auto&) {
            return std::optional<core::row_change>{};
        });
    }

    // write() of a change that creates one row of `table` and answers a result holding it (with its id).
    template <class Change>
    auto write_created(core::row_table table, Change&& change)
        -> decltype(change(std::declval<pg_connection&>())) {
        return write_naming(std::forward<Change>(change), [table](const auto& answer) {
            return std::optional<core::row_change>(core::row_change{table, answer->id});
        });
    }

    // write() for a store whose rows no cache holds (the shop's carts, orders and payments: what they change
    // in the catalogue, stock, they tell on its channel themselves): nobody is told and no journal record is
    // made, so a write adds no NOTIFY (whose lock PostgreSQL holds through the commit's WAL flush). Inside a
    // write_batch, its own savepoint of the batch's transaction, as write().
    template <class Change>
    auto write_untold(Change&& change) -> decltype(change(std::declval<pg_connection&>())) {
        if (auto* joined = batch(); joined != nullptr) {
            const auto no_name = [](const auto&) { return std::optional<core::row_change>{}; };
            return write_in_batch<false>(*joined, change, no_name);
        }
        auto conn = connection();
        pg_transaction tx(*conn);
        auto answer = change(*conn);
        if (static_cast<bool>(answer)) {
            tx.commit();
        }
        return answer;
    }

    // A write that changes or deletes row `id` of `table`: the row is locked first (lock_writable_row:
    // errc::not_found, or `seed_error` for seed data), then `change(conn)` runs as in write().
    template <class Change>
    auto write_row(std::string_view table, std::int64_t id, core::errc seed_error, Change&& change)
        -> decltype(change(std::declval<pg_connection&>())) {
        const auto named = row_table_of(table);
        return write_naming(
            [&](pg_connection& conn) -> decltype(change(conn)) {
                if (const auto writable = lock_writable_row(conn, table, id, seed_error); !writable) {
                    return writable.error();
                }
                return change(conn);
            },
            [&](const auto&) {
                return named ? std::optional(core::row_change{*named, id}) : std::nullopt;
            }
        );
    }

    // One write that deletes row `id` of `table` (which has a seed column: the catalogue's and the users'
    // deletes), locked first as in write_row(): errc::not_found, `seed_error` for seed data (read-only),
    // errc::in_use while other rows still reference it (a category that has products).
    [[nodiscard]] core::result<void> delete_row(
        std::string_view table, std::int64_t id, core::errc seed_error
    );

    // One write that deletes row `id` of `table` (no seed column: the petstore's pets and orders);
    // errc::not_found when there is none.
    [[nodiscard]] core::result<void> remove_row(std::string_view table, std::int64_t id);

    // The rows of `table` (one query on a borrowed connection).
    [[nodiscard]] std::size_t count_rows(std::string_view table);

    [[nodiscard]] pg_pool& pool() { return *pool_; }

  private:
    // write() whose successful answer names its row with `name(answer)`.
    template <class Change, class Name>
    auto write_naming(Change&& change, Name&& name) -> decltype(change(std::declval<pg_connection&>())) {
        if (auto* joined = batch(); joined != nullptr) {
            return write_in_batch(*joined, change, name);
        }
        auto conn = connection();
        pg_transaction tx(*conn);
        auto answer = change(*conn);
        if constexpr (std::is_constructible_v<bool, decltype(answer)>) {
            if (!static_cast<bool>(answer)) {
                return answer;
            }
        }
        commit_write(*conn, tx, name(answer));
        return answer;
    }
    // This thread's write batch's share of this database (pg_batch::of_this_thread), the schema and seed
    // made ready first; nullptr outside a batch.
    [[nodiscard]] pg_batch* batch();
    // write_naming inside the batch: a savepoint per write, so an error answer or an exception undoes this
    // write only (sent with the write's first statement, in its round trip; not released, which would cost
    // a round trip of its own); a failure that cannot be undone loses the batch (it will not commit). Each
    // savepoint has a name of its own: should one not have been made, undoing it fails (and loses the batch)
    // rather than rolling back to an earlier write's, whose answer is already given.
    template <bool tell = true, class Change, class Name>
    auto write_in_batch(pg_batch& batch, Change& change, [[maybe_unused]] const Name& name)
        -> decltype(change(std::declval<pg_connection&>())) {
        batch.check_not_lost();
        auto& conn = batch.connection();
        const auto savepoint = batch.next_savepoint();
        conn.send_with_next("SAVEPOINT " + savepoint);
        try {
            auto answer = change(conn);
            if constexpr (std::is_constructible_v<bool, decltype(answer)>) {
                if (!static_cast<bool>(answer)) {
                    if (!conn.drop_unsent()) {  // what it queued goes nowhere; what it sent is undone
                        undo_savepoint(conn, savepoint);
                    }
                    return answer;
                }
            }
            conn.send_queued();  // its statements nobody waited for, inside its savepoint
            (void)conn.drop_unsent();
            if constexpr (tell) {
                const auto row = name(answer);
                batch.notify_at_commit(channel_, payload_of(row));
                batch.after_commit([this, row] { record(row); });
            }
            return answer;
        } catch (...) {
            try {
                if (!conn.drop_unsent()) {
                    undo_savepoint(conn, savepoint);
                }
            } catch (...) {
                batch.lost(std::current_exception());
            }
            throw;
        }
    }
    static void undo_savepoint(pg_connection& conn, const std::string& savepoint);
    // The payload of the notification naming `row` ("products 12 <origin>"; empty: rows nobody names).
    [[nodiscard]] std::string payload_of(std::optional<core::row_change> row) const;
    // The journal's table for an SQL table whose rows caches hold ("products"), else nullopt.
    static std::optional<core::row_table> row_table_of(std::string_view table);
    // Records a change of this instance or of another one (from its notification's payload).
    void record(std::optional<core::row_change> row);
    void heard(std::optional<std::string_view> payload);

    std::shared_ptr<pg_pool> pool_;
    std::string name_;
    std::string channel_;
    // Random, per aggregate object: ends the payload of its own notifications ("products 12 <origin>").
    std::string origin_;
    seed_writer seed_;
    std::mutex ready_mutex_;
    std::atomic<bool> ready_{false};
    change_journal journal_;
    std::uint64_t subscription_ = 0;
};

// A port (catalogue_store, user_store: a revisioned_store) on one aggregate, whose revision feed is the
// aggregate's: what the adapter's writes and other instances' notifications move.
template <class Port>
class pg_revisioned : public Port {
  public:
    [[nodiscard]] std::uint64_t revision() const override { return aggregate_.revision(); }
    [[nodiscard]] core::result<core::row_changes> changes_since(std::uint64_t since) const override {
        return aggregate_.changes_since(since);
    }

  protected:
    // The aggregate's arguments (pg_aggregate's constructor).
    template <class... Args>
    explicit pg_revisioned(Args&&... args) : aggregate_(std::forward<Args>(args)...) {}

    mutable pg_aggregate aggregate_;
};

}  // namespace storefront::storage::detail
