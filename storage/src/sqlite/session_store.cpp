// Refresh families in SQLite: start (dropping expired rows through the expiry index), rotate with replay
// detection, revoke.

#include "storage/session_store.hpp"

#include <memory>
#include <utility>

#include "sqlite/database.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using step = detail::sqlite_statement::step_result;

void delete_family(sqlite_connection& db, std::string_view id) {
    (void)detail::delete_where(db, "DELETE FROM sessions WHERE id = ?1", id);
}

class sqlite_session_store final : public session_store {
  public:
    explicit sqlite_session_store(std::shared_ptr<detail::sqlite_database> db) : db_(std::move(db)) {}

    core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            (void)detail::delete_where(w, "DELETE FROM sessions WHERE expires_at <= ?1", now);
            auto insert = w.prepare(
                "INSERT OR REPLACE INTO sessions (id, user_id, generation, expires_at) VALUES (?1, ?2, 0, ?3)"
            );
            insert.bind(1, id).bind(2, user_id).bind(3, expires_at);
            (void)insert.step();
            return {};
        });
    }

    core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override {
        auto w = db_->writer();
        sqlite_connection::transaction tx(*w);
        auto current = w->prepare("SELECT generation, expires_at FROM sessions WHERE id = ?1");
        current.bind(1, id);
        if (current.step() != step::row) {
            return core::errc::invalid_refresh_token;
        }
        if (current.int64(0) != generation || current.int64(1) <= now) {
            delete_family(*w, id);  // expired, or an old token replayed: nobody refreshes this family again
            tx.commit();
            return core::errc::invalid_refresh_token;
        }
        auto advance =
            w->prepare("UPDATE sessions SET generation = ?2, expires_at = MIN(expires_at, ?3) WHERE id = ?1");
        advance.bind(1, id).bind(2, generation + 1).bind(3, expires_at);
        (void)advance.step();
        tx.commit();
        return generation + 1;
    }

    core::result<void> revoke(std::string_view id, std::int64_t user_id) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            auto remove = w.prepare("DELETE FROM sessions WHERE id = ?1 AND user_id = ?2");
            remove.bind(1, id).bind(2, user_id);
            (void)remove.step();
            if (w.changes() == 0) {
                return core::errc::not_found;
            }
            return {};
        });
    }

    core::result<bool> is_live(std::string_view id, std::int64_t user_id, std::int64_t now) const override {
        auto r = db_->reader();
        auto live = r->prepare("SELECT 1 FROM sessions WHERE id = ?1 AND user_id = ?2 AND expires_at > ?3");
        live.bind(1, id).bind(2, user_id).bind(3, now);
        return live.step() == step::row;
    }

    core::result<std::int64_t> revoke_user(std::int64_t user_id) override {
        return db_->write([&](sqlite_connection& w) -> core::result<std::int64_t> {
            auto remove = w.prepare("DELETE FROM sessions WHERE user_id = ?1");
            remove.bind(1, user_id);
            (void)remove.step();
            return static_cast<std::int64_t>(w.changes());
        });
    }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<session_store> make_sqlite_session_store(std::shared_ptr<detail::sqlite_database> db) {
    return std::make_unique<sqlite_session_store>(std::move(db));
}

}  // namespace storefront::storage
