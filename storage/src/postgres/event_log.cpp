// pg_event_log: the change feed's history of every data set in two tables of the shared view's schema
// (a counter row per data set numbers its events, so ids are the same on every instance and consecutive),
// appends announced by NOTIFY on one channel with the data set as payload. Concurrent appends share one
// transaction (event_append_queue): one commit and one NOTIFY per data set for all of them.

#include "storage/event_log.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "postgres/event_append_queue.hpp"
#include "postgres/listener.hpp"
#include "postgres/pool.hpp"
#include "postgres/stores.hpp"
#include "postgres/tables_once.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;
using detail::pg_transaction;
using detail::queued_append;

constexpr std::string_view counters_table = R"sql(
CREATE TABLE IF NOT EXISTS storefront_event_counters (data_set text PRIMARY KEY, last_id bigint NOT NULL))sql";
constexpr std::string_view events_table = R"sql(
CREATE TABLE IF NOT EXISTS storefront_events (
    data_set text NOT NULL, id bigint NOT NULL, type text NOT NULL, data text NOT NULL, owner bigint,
    at_ms bigint NOT NULL, PRIMARY KEY (data_set, id)))sql";

// The next id of the data set (the row lock on its counter orders concurrent appends until commit, so ids
// become visible in order) and the event under it, in one statement.
constexpr std::string_view append_sql = R"sql(
WITH next AS (
    INSERT INTO storefront_event_counters (data_set, last_id) VALUES ($1, 1)
    ON CONFLICT (data_set) DO UPDATE SET last_id = storefront_event_counters.last_id + 1
    RETURNING last_id)
INSERT INTO storefront_events (data_set, id, type, data, owner, at_ms)
SELECT $1, next.last_id, $2, $3, $4, $5 FROM next RETURNING id)sql";

constexpr std::string_view after_sql = R"sql(
SELECT id, type, data, owner, at_ms FROM (
    SELECT id, type, data, owner, at_ms FROM storefront_events WHERE data_set = $1 AND id > $2
    ORDER BY id DESC LIMIT $3) newest ORDER BY id)sql";

// Every data set with `prefix` whose newest event is older than the cutoff, its events and its counter, in
// one statement (so one transaction).
constexpr std::string_view forget_idle_sql = R"sql(
WITH idle AS (
    SELECT data_set FROM storefront_events WHERE starts_with(data_set, $1)
    GROUP BY data_set HAVING max(at_ms) < $2),
gone AS (DELETE FROM storefront_events e USING idle WHERE e.data_set = idle.data_set)
DELETE FROM storefront_event_counters c USING idle WHERE c.data_set = idle.data_set)sql";

class pg_event_log final : public event_log {
  public:
    explicit pg_event_log(const storage_config& config)
        : pool_(detail::shared_pg_pool(pg_target{config.backend, {}}, config.pool_size)),
          appends_([this](const std::vector<queued_append*>& batch) { write(batch); }) {}

    ~pg_event_log() override {
        if (subscription_ != 0) {
            pool_->listener().unsubscribe(subscription_);
        }
    }
    pg_event_log(const pg_event_log&) = delete;
    pg_event_log& operator=(const pg_event_log&) = delete;

    stored_event append(
        std::string_view data_set,
        std::string_view type,
        std::string_view data,
        std::optional<std::int64_t> owner,
        std::int64_t at_ms
    ) override {
        queued_append a{{}, data_set, type, data, owner, at_ms};
        appends_.run(a);
        return stored_event{a.id, std::string(type), std::string(data), owner, at_ms};
    }

    std::vector<stored_event> after(std::string_view data_set, std::uint64_t after, std::size_t limit)
        const override {
        auto db = const_cast<pg_event_log*>(this)->connection();
        const auto r = db->exec(
            after_sql,
            pg_params()
                .add(data_set)
                .add(static_cast<std::int64_t>(after))
                .add(static_cast<std::int64_t>(limit))
        );
        std::vector<stored_event> out;
        out.reserve(static_cast<std::size_t>(r.size()));
        for (int row = 0; row < r.size(); ++row) {
            stored_event e;
            e.id = static_cast<std::uint64_t>(r.int64(row, 0));
            e.type = r.text(row, 1);
            e.data = r.text(row, 2);
            if (!r.is_null(row, 3)) {
                e.owner = r.int64(row, 3);
            }
            e.at_ms = r.int64(row, 4);
            out.push_back(std::move(e));
        }
        return out;
    }

    void on_append(std::function<void(std::optional<std::string_view>)> heard) override {
        subscription_ = pool_->listener().subscribe(
            detail::event_log_channel,
            [heard = std::move(heard)](std::optional<std::string_view> payload) { heard(payload); }
        );
    }

    void trim(std::string_view data_set, std::size_t keep) override {
        auto db = connection();
        if (keep == 0) {
            pg_transaction tx(*db);
            (void)db->exec("DELETE FROM storefront_events WHERE data_set = $1", pg_params().add(data_set));
            (void
            )db->exec("DELETE FROM storefront_event_counters WHERE data_set = $1", pg_params().add(data_set));
            tx.commit();
            return;
        }
        (void)db->exec(
            "DELETE FROM storefront_events WHERE data_set = $1 AND id <= "
            "(SELECT last_id FROM storefront_event_counters WHERE data_set = $1) - $2",
            pg_params().add(data_set).add(static_cast<std::int64_t>(keep))
        );
    }

    void forget_idle(std::string_view prefix, std::int64_t idle_before_ms) override {
        auto db = connection();
        (void)db->exec(forget_idle_sql, pg_params().add(prefix).add(idle_before_ms));
    }

  private:
    // One transaction for a batch of appends: each data set's counter row is locked in name order (so two
    // instances' batches cannot deadlock) and held to the commit, so every data set's ids become visible in
    // order and without gaps; one NOTIFY per data set, delivered at commit.
    void write(const std::vector<queued_append*>& batch) {
        std::vector<queued_append*> by_data_set(batch);
        std::stable_sort(by_data_set.begin(), by_data_set.end(), [](const auto* a, const auto* b) {
            return a->data_set < b->data_set;
        });
        auto db = connection();
        pg_transaction tx(*db);
        for (auto* a : by_data_set) {
            const auto r = db->exec(
                append_sql,
                pg_params().add(a->data_set).add(a->type).add(a->data).add(a->owner).add(a->at_ms),
                detail::pg_plan::kept
            );
            a->id = static_cast<std::uint64_t>(r.int64(0, 0));
        }
        for (std::size_t i = 0; i < by_data_set.size(); ++i) {
            if (i == 0 || by_data_set[i]->data_set != by_data_set[i - 1]->data_set) {
                (void)db->exec(
                    "SELECT pg_notify($1, $2)",
                    pg_params().add(detail::event_log_channel).add(by_data_set[i]->data_set),
                    detail::pg_plan::kept
                );
            }
        }
        tx.commit();
    }

    // A connection to a database with the tables (made by the first call that reaches it).
    detail::pg_pool::lease connection() {
        return tables_.connection(*pool_, [](pg_connection& db) {
            (void)db.exec(
                "SELECT pg_advisory_xact_lock(hashtext($1))", pg_params().add(detail::event_log_channel)
            );
            (void)db.exec(counters_table);
            (void)db.exec(events_table);
        });
    }

    std::shared_ptr<detail::pg_pool> pool_;
    detail::tables_once tables_;
    detail::event_append_queue appends_;
    std::uint64_t subscription_ = 0;
};

}  // namespace

std::unique_ptr<event_log> make_pg_event_log(const storage_config& config) {
    return std::make_unique<pg_event_log>(config);
}

}  // namespace storefront::storage
