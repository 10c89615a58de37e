// pg_pet_user_store: users keyed by username (the table's primary key), upserts, renames that keep the id
// and report a taken username as errc::conflict.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/found.hpp"
#include "common/write_row.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/reset.hpp"
#include "postgres/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;

constexpr std::string_view upsert_pet_user =
    "INSERT INTO pet_users (username, id, first_name, last_name, email, phone, user_status, password_hash) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (username) DO UPDATE SET id = excluded.id, "
    "first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email, "
    "phone = excluded.phone, user_status = excluded.user_status, password_hash = excluded.password_hash";

pg_params user_params(const core::pet_user_credentials& c) {
    const auto& u = c.profile;
    pg_params p;
    p.add(u.username).add(u.id).add(u.first_name).add(u.last_name).add(u.email).add(u.phone);
    p.add(u.user_status ? std::optional<std::int64_t>(*u.user_status) : std::nullopt).add(c.password_hash);
    return p;
}

class pg_pet_user_store final : public pet_user_store {
  public:
    // `seed` is called only when the database has not been seeded yet (it hashes a password).
    pg_pet_user_store(
        const pg_target& target,
        std::size_t pool_size,
        std::function<std::vector<core::pet_user_credentials>()> seed
    )
        : aggregate_(
              target,
              pool_size,
              "pet_users",
              [seed = std::move(seed)](pg_connection& conn) { detail::write_rows(conn, seed()); },
              false
          ) {}

    core::result<core::pet_user_credentials> find(std::string_view username) const override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "SELECT username, id, first_name, last_name, email, phone, user_status, password_hash FROM "
            "pet_users "
            "WHERE username = $1",
            pg_params().add(username)
        );
        if (r.empty()) {
            return core::errc::not_found;
        }
        core::pet_user_credentials c;
        auto& u = c.profile;
        detail::read_columns(
            r,
            0,
            0,
            u.username,
            u.id,
            u.first_name,
            u.last_name,
            u.email,
            u.phone,
            u.user_status,
            c.password_hash
        );
        return c;
    }

    core::pet_user add(core::pet_user_credentials user) override {
        return aggregate_.write([&](pg_connection& db) {
            aggregate_.lock(db);
            detail::add_row(db, "pet_users", user.profile.id, user);
            return user.profile;
        });
    }

    core::result<core::pet_user> replace(std::string_view username, core::pet_user_credentials user)
        override {
        return aggregate_.write([&](pg_connection& db) -> core::result<core::pet_user> {
            const auto current =
                db.exec("SELECT id FROM pet_users WHERE username = $1 FOR UPDATE", pg_params().add(username));
            if (current.empty()) {
                return core::errc::not_found;
            }
            if (user.profile.id == 0) {
                user.profile.id = current.int64(0, 0);
            }
            auto params = user_params(user);
            params.add(username);
            const auto written = detail::exec_write(
                db,
                "UPDATE pet_users SET username = $1, id = $2, first_name = $3, last_name = $4, email = $5, "
                "phone = $6, user_status = $7, password_hash = $8 WHERE username = $9",
                params
            );
            if (!written) {
                return written.error();  // the new username belongs to another user
            }
            return user.profile;
        });
    }

    core::result<void> remove(std::string_view username) override {
        return aggregate_.write([&](pg_connection& db) {
            const auto removed =
                db.exec("DELETE FROM pet_users WHERE username = $1", pg_params().add(username));
            return detail::found_any(removed.affected() > 0);
        });
    }

    std::size_t count() const override { return aggregate_.count_rows("pet_users"); }

  private:
    mutable detail::pg_aggregate aggregate_;
};

}  // namespace

std::unique_ptr<pet_user_store> make_pg_pet_user_store(
    const pg_target& target,
    std::size_t pool_size,
    std::function<std::vector<core::pet_user_credentials>()> seed
) {
    return std::make_unique<pg_pet_user_store>(target, pool_size, std::move(seed));
}

namespace detail {

void write_row(pg_connection& conn, const core::pet_user_credentials& user) {
    (void)conn.exec(upsert_pet_user, user_params(user));
}

}  // namespace detail

}  // namespace storefront::storage
