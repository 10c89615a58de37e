// pg_sandbox_store: the registry of sandboxes as a table in the shared view's schema, shared by every
// instance; each sandbox's data lives in a schema of its own ("sb_" and a hash of the id), dropped with its
// row. Creates and removes are serialised across instances by an advisory lock and announced by NOTIFY.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <openssl/evp.h>

#include "postgres/pool.hpp"
#include "postgres/stores.hpp"
#include "postgres/tables_once.hpp"
#include "storage/storage_error.hpp"

namespace storefront::storage {

namespace {

using clock = std::chrono::system_clock;
using detail::pg_connection;
using detail::pg_params;
using detail::pg_rows;
using detail::pg_transaction;

constexpr std::string_view registry_table = R"sql(
CREATE TABLE IF NOT EXISTS storefront_sandboxes (
    id text PRIMARY KEY, generation bigint GENERATED ALWAYS AS IDENTITY, last_used timestamptz NOT NULL))sql";

// Times travel as microseconds since the epoch (exact both ways, unlike a float of seconds).
constexpr std::string_view micros_to_time = "('epoch'::timestamptz + $%::bigint * interval '1 microsecond')";
constexpr std::string_view time_to_micros = "(extract(epoch FROM last_used) * 1000000)::bigint";

std::string with_param(std::string_view pattern, int n) {
    std::string out(pattern);
    out.replace(out.find('%'), 1, std::to_string(n));
    return out;
}

std::int64_t micros_of(clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

clock::time_point time_of_micros(std::int64_t micros) {
    return clock::time_point(std::chrono::duration_cast<clock::duration>(std::chrono::microseconds(micros)));
}

// "sb_" and the first 16 bytes of SHA-256(id) in hex: a valid unquoted identifier of fixed length, whatever
// the id's case (ids "Ab" and "ab" are two sandboxes; identifiers fold case unless quoted).
std::string schema_of(std::string_view id) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(id.data(), id.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    constexpr char hex[] = "0123456789abcdef";
    std::string schema = "sb_";
    for (unsigned int i = 0; i < 16 && i < length; ++i) {
        schema += hex[digest[i] >> 4];
        schema += hex[digest[i] & 0x0F];
    }
    return schema;
}

sandbox_record record_at(const pg_rows& r, std::string_view id) {
    return sandbox_record{std::string(id), r.int64(0, 0), time_of_micros(r.int64(0, 1))};
}

// The registry row of `id`; nullopt when there is none.
std::optional<sandbox_record> select_record(pg_connection& db, std::string_view id) {
    const auto r = db.exec(
        "SELECT generation, " + std::string(time_to_micros) + " FROM storefront_sandboxes WHERE id = $1",
        pg_params().add(id)
    );
    if (r.empty()) {
        return std::nullopt;
    }
    return record_at(r, id);
}

class pg_sandbox_store final : public sandbox_store {
  public:
    explicit pg_sandbox_store(storage_config base)
        : base_(std::move(base)),
          pool_(detail::shared_pg_pool(pg_target{base_.backend, {}}, base_.pool_size)) {
        base_.pool_size = 1;  // per sandbox: many sandboxes may be open at once
        subscription_ = pool_->listener().subscribe(detail::sandbox_registry_channel, [this](auto) {
            revision_.fetch_add(1, std::memory_order_acq_rel);
        });
    }

    ~pg_sandbox_store() override { pool_->listener().unsubscribe(subscription_); }
    pg_sandbox_store(const pg_sandbox_store&) = delete;
    pg_sandbox_store& operator=(const pg_sandbox_store&) = delete;

    core::result<std::optional<sandbox_record>> find(std::string_view id) override {
        auto db = connection();
        return select_record(*db, id);
    }

    core::result<sandbox_record> create(std::string_view id, std::size_t max_live, clock::time_point now)
        override {
        auto db = connection();
        pg_transaction tx(*db);
        lock(*db);
        if (auto existing = select_record(*db, id)) {
            return *std::move(existing);
        }
        const auto live = db->exec("SELECT count(*) FROM storefront_sandboxes").int64(0, 0);
        if (static_cast<std::size_t>(live) >= max_live) {
            return core::errc::storage_full;
        }
        const auto created = db->exec(
            "INSERT INTO storefront_sandboxes (id, last_used) VALUES ($1, " + with_param(micros_to_time, 2) +
                ") ON CONFLICT (id) DO NOTHING RETURNING generation, " + std::string(time_to_micros),
            pg_params().add(id).add(micros_of(now))
        );
        if (created.empty()) {
            // A writer that skipped the lock inserted it meanwhile: that row is the answer.
            if (auto other = select_record(*db, id)) {
                return *std::move(other);
            }
            throw storage_unavailable("sandbox registry: a row changed while it was being created");
        }
        notify(*db, id);
        tx.commit();
        revision_.fetch_add(1, std::memory_order_acq_rel);
        return record_at(created, id);
    }

    core::result<void> touch(std::string_view id, clock::time_point now) override {
        auto db = connection();
        (void)db->exec(
            "UPDATE storefront_sandboxes SET last_used = " + with_param(micros_to_time, 2) + " WHERE id = $1",
            pg_params().add(id).add(micros_of(now))
        );
        return {};
    }

    core::result<bool> remove(std::string_view id) override {
        auto db = connection();
        pg_transaction tx(*db);
        lock(*db);
        // Dropped even without a row: a schema left behind by an interrupted create goes too.
        (void)db->exec("DROP SCHEMA IF EXISTS " + db->quote_identifier(schema_of(id)) + " CASCADE");
        const auto removed = db->exec("DELETE FROM storefront_sandboxes WHERE id = $1", pg_params().add(id));
        if (removed.affected() == 0) {
            tx.commit();
            return false;
        }
        notify(*db, id);
        tx.commit();
        revision_.fetch_add(1, std::memory_order_acq_rel);
        return true;
    }

    core::result<std::vector<std::string>> idle_since(clock::time_point cutoff, std::size_t limit) override {
        auto db = connection();
        const auto r = db->exec(
            "SELECT id FROM storefront_sandboxes WHERE last_used < " + with_param(micros_to_time, 1) +
                " ORDER BY last_used LIMIT $2",
            pg_params().add(micros_of(cutoff)).add(static_cast<std::int64_t>(limit))
        );
        std::vector<std::string> ids;
        for (int row = 0; row < r.size(); ++row) {
            ids.emplace_back(r.text(row, 0));
        }
        return ids;
    }

    core::result<std::size_t> count() override {
        auto db = connection();
        return static_cast<std::size_t>(db->exec("SELECT count(*) FROM storefront_sandboxes").int64(0, 0));
    }

    std::uint64_t revision() const override { return revision_.load(std::memory_order_acquire); }

    storage_config config_for(std::string_view id) const override {
        auto config = base_;
        config.schema = schema_of(id);
        return config;
    }

    bool durable() const override { return true; }

  private:
    // A connection to a database that has the registry table (created by the first call that reaches it).
    detail::pg_pool::lease connection() {
        return tables_.connection(*pool_, [](pg_connection& db) {
            lock(db);
            (void)db.exec(registry_table);
        });
    }

    // Inside a transaction: serialises the registry's writers across instances (the count against
    // max_live, a remove against a create) until it ends.
    static void lock(pg_connection& db) {
        (void)db.exec(
            "SELECT pg_advisory_xact_lock(hashtext($1))", pg_params().add(detail::sandbox_registry_channel)
        );
    }

    static void notify(pg_connection& db, std::string_view id) {
        (void)db.exec("SELECT pg_notify($1, $2)", pg_params().add(detail::sandbox_registry_channel).add(id));
    }

    storage_config base_;
    std::shared_ptr<detail::pg_pool> pool_;
    detail::tables_once tables_;
    std::atomic<std::uint64_t> revision_{1};
    std::uint64_t subscription_ = 0;
};

}  // namespace

std::unique_ptr<sandbox_store> make_pg_sandbox_store(storage_config base) {
    return std::make_unique<pg_sandbox_store>(std::move(base));
}

}  // namespace storefront::storage
