// pg_user_store: pages, lookups by id and e-mail, and single-transaction writes whose UNIQUE e-mail
// violations become errc::conflict; the seed writer.

#include "storage/user_store.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/found.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/reset.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;
using detail::pg_rows;

constexpr std::string_view user_select =
    "SELECT id, email, name, role, avatar, created_at, updated_at, seed, password_hash FROM users ";

core::user_credentials user_at(const detail::pg_row& row) {
    core::user_credentials c;
    auto& u = c.profile;
    row.read(0, u.id, u.email, u.name, u.role, u.avatar, u.created_at, u.updated_at, u.seed, c.password_hash);
    return c;
}

core::result<core::user_credentials> one_user(
    pg_connection& db, std::string_view where, const pg_params& params
) {
    return detail::first_or_not_found(
        detail::read_rows(db.exec(std::string(user_select) + std::string(where), params), user_at)
    );
}

core::result<core::user> one_profile(pg_connection& db, std::int64_t id) {
    auto found = one_user(db, "WHERE id = $1", pg_params().add(id));
    if (!found) {
        return found.error();
    }
    return std::move(found->profile);
}

class pg_user_store final : public detail::pg_revisioned<user_store> {
  public:
    // An empty database gets the seed users from `seed` once (called only then: hashing is slow).
    pg_user_store(
        const pg_target& target,
        std::size_t pool_size,
        std::function<std::vector<core::user_credentials>()> seed
    )
        : pg_revisioned(
              target,
              pool_size,
              "users",
              [seed = std::move(seed)](pg_connection& conn) { detail::write_user_seed(conn, seed()); },
              true
          ) {}

    std::vector<core::user> list_users(const core::page_request& page) const override {
        constexpr std::size_t most = std::numeric_limits<std::int64_t>::max();
        auto db = aggregate_.connection();
        std::vector<core::user> out;
        for (auto& c : detail::read_rows(
                 db->exec(
                     std::string(user_select) + "ORDER BY id LIMIT $1 OFFSET $2",
                     pg_params()
                         .add(static_cast<std::int64_t>(std::min(page.limit, most)))
                         .add(static_cast<std::int64_t>(std::min(page.offset, most)))
                 ),
                 user_at
             )) {
            out.push_back(std::move(c.profile));
        }
        return out;
    }

    std::size_t user_count() const override {
        auto db = aggregate_.connection();
        return static_cast<std::size_t>(db->exec("SELECT count(*) FROM users").int64(0, 0));
    }

    core::result<core::user> find_user(std::int64_t id) const override {
        auto db = aggregate_.connection();
        return one_profile(*db, id);
    }

    core::result<core::user_credentials> find_credentials(std::string_view normalized_email) const override {
        auto db = aggregate_.connection();
        return one_user(*db, "WHERE lower(email) = $1", pg_params().add(normalized_email));
    }

    core::result<bool> email_taken(std::string_view normalized_email) const override {
        auto db = aggregate_.connection();
        return !db->exec("SELECT 1 FROM users WHERE lower(email) = $1", pg_params().add(normalized_email))
                    .empty();
    }

    core::result<core::user> create_user(const core::user_draft& draft) override {
        return aggregate_.write_created(
            core::row_table::users,
            [&](pg_connection& db) -> core::result<core::user> {
                pg_rows rows;
                const auto written = detail::exec_write(
                    db,
                    "INSERT INTO users (email, name, role, avatar, password_hash, created_at, updated_at) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
                    pg_params()
                        .add(draft.email)
                        .add(draft.name)
                        .add(draft.role)
                        .add(draft.avatar)
                        .add(draft.password_hash)
                        .add(detail::now_ms()),
                    &rows
                );
                if (!written) {
                    return written.error();  // the e-mail is taken
                }
                return one_profile(db, rows.int64(0, 0));
            }
        );
    }

    core::result<core::user> update_user(std::int64_t id, const core::user_patch& patch) override {
        return aggregate_.write_row(
            "users",
            id,
            core::errc::seed_user_read_only,
            [&](pg_connection& db) -> core::result<core::user> {
                const auto written = detail::exec_write(
                    db,
                    "UPDATE users SET email = coalesce($2, email), name = coalesce($3, name), "
                    "password_hash = coalesce($4, password_hash), avatar = coalesce($5, avatar), "
                    "role = coalesce($6, role), updated_at = $7 WHERE id = $1",
                    pg_params()
                        .add(id)
                        .add(patch.email)
                        .add(patch.name)
                        .add(patch.password_hash)
                        .add(patch.avatar)
                        .add(patch.role)
                        .add(detail::now_ms())
                );
                if (!written) {
                    return written.error();  // the new e-mail is another user's
                }
                return one_profile(db, id);
            }
        );
    }

    core::result<void> delete_user(std::int64_t id) override {
        return aggregate_.delete_row("users", id, core::errc::seed_user_read_only);
    }
};

}  // namespace

std::unique_ptr<user_store> make_pg_user_store(
    const pg_target& target, std::size_t pool_size, std::function<std::vector<core::user_credentials>()> seed
) {
    return std::make_unique<pg_user_store>(target, pool_size, std::move(seed));
}

namespace detail {

void write_user_seed(pg_connection& conn, const std::vector<core::user_credentials>& users) {
    for (const auto& c : users) {
        const auto& u = c.profile;
        (void)conn.exec(
            "INSERT INTO users (id, email, name, role, avatar, password_hash, created_at, updated_at, seed) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            pg_params()
                .add(u.id)
                .add(u.email)
                .add(u.name)
                .add(u.role)
                .add(u.avatar)
                .add(c.password_hash)
                .add(u.created_at)
                .add(u.updated_at)
                .add(u.seed)
        );
    }
    continue_ids_after_seed(conn, "users");
}

}  // namespace detail

}  // namespace storefront::storage
