// Refresh families in PostgreSQL: start (dropping expired rows), rotate with replay detection under a row
// lock, revoke.

#include "storage/session_store.hpp"

#include <cstddef>
#include <string>

#include "postgres/aggregate.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

using detail::pg_params;

namespace {

class pg_session_store final : public session_store {
  public:
    pg_session_store(const pg_target& target, std::size_t pool_size)
        : aggregate_(target, pool_size, "sessions", {}, false) {}

    core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        (void)db->exec("DELETE FROM sessions WHERE expires_at <= $1", pg_params().add(now));
        (void)db->exec(
            "INSERT INTO sessions (id, user_id, generation, expires_at) VALUES ($1, $2, 0, $3) "
            "ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, generation = 0, "
            "expires_at = excluded.expires_at",
            pg_params().add(id).add(user_id).add(expires_at)
        );
        tx.commit();
        return {};
    }

    core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override {
        auto db = aggregate_.connection();
        detail::pg_transaction tx(*db);
        const auto current = db->exec(
            "SELECT generation, expires_at FROM sessions WHERE id = $1 FOR UPDATE", pg_params().add(id)
        );
        if (current.empty()) {
            return core::errc::invalid_refresh_token;
        }
        if (current.int64(0, 0) != generation || current.int64(0, 1) <= now) {
            // Expired, or an old token replayed: nobody refreshes this family again.
            (void)db->exec("DELETE FROM sessions WHERE id = $1", pg_params().add(id));
            tx.commit();
            return core::errc::invalid_refresh_token;
        }
        (void)db->exec(
            "UPDATE sessions SET generation = $2, expires_at = LEAST(expires_at, $3) WHERE id = $1",
            pg_params().add(id).add(generation + 1).add(expires_at)
        );
        tx.commit();
        return generation + 1;
    }

    core::result<void> revoke(std::string_view id, std::int64_t user_id) override {
        auto db = aggregate_.connection();
        const auto removed =
            db->exec("DELETE FROM sessions WHERE id = $1 AND user_id = $2", pg_params().add(id).add(user_id));
        if (removed.affected() == 0) {
            return core::errc::not_found;
        }
        return {};
    }

    core::result<bool> is_live(std::string_view id, std::int64_t user_id, std::int64_t now) const override {
        auto db = aggregate_.connection();
        const auto live = db->exec(
            "SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND expires_at > $3",
            pg_params().add(id).add(user_id).add(now)
        );
        return !live.empty();
    }

    core::result<std::int64_t> revoke_user(std::int64_t user_id) override {
        auto db = aggregate_.connection();
        const auto removed = db->exec("DELETE FROM sessions WHERE user_id = $1", pg_params().add(user_id));
        return static_cast<std::int64_t>(removed.affected());
    }

  private:
    mutable detail::pg_aggregate aggregate_;
};

}  // namespace

std::unique_ptr<session_store> make_pg_session_store(const pg_target& target, std::size_t pool_size) {
    return std::make_unique<pg_session_store>(target, pool_size);
}

}  // namespace storefront::storage
