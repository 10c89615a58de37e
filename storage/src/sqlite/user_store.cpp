// sqlite_user_store: users by id and by normalised e-mail (UNIQUE, so a concurrent registration of the same
// address fails on the constraint, not on a race); seed written once per file.

#include "storage/user_store.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/found.hpp"
#include "common/seed_once.hpp"
#include "core/email.hpp"
#include "sqlite/columns.hpp"
#include "sqlite/database.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

constexpr auto is_seed_user = [](const core::user_credentials& user) { return user.profile.seed; };

constexpr std::string_view user_select =
    "SELECT id, email, name, role, avatar, created_at, updated_at, seed, password_hash FROM users ";

core::user_credentials credentials_at(const sqlite_statement& s) {
    core::user_credentials c;
    auto& u = c.profile;
    detail::read_columns(
        s, 0, u.id, u.email, u.name, u.role, u.avatar, u.created_at, u.updated_at, u.seed, c.password_hash
    );
    return c;
}

template <class Bind>
core::result<core::user_credentials> user_where(sqlite_connection& db, std::string_view where, Bind&& bind) {
    auto s = db.prepare(std::string(user_select) + std::string(where));
    bind(s);
    if (s.step() != step::row) {
        return core::errc::not_found;
    }
    return credentials_at(s);
}

core::result<core::user_credentials> user_by_id(sqlite_connection& db, std::int64_t id) {
    return user_where(db, "WHERE id = ?1", [&](auto& s) { s.bind(1, id); });
}

void insert_seed_user(sqlite_statement& insert, const core::user_credentials& u) {
    const auto& p = u.profile;
    insert.bind(1, p.id).bind(2, std::string_view(p.email)).bind(3, std::string_view(p.name));
    insert.bind(4, std::string_view(p.role)).bind(5, std::string_view(p.avatar));
    insert.bind(6, std::string_view(u.password_hash)).bind(7, p.created_at).bind(8, p.updated_at);
    insert.bind(9, static_cast<std::int64_t>(p.seed));
    if (insert.step() == step::constraint) {
        throw std::invalid_argument("duplicate e-mail or id for seed user " + std::to_string(p.id));
    }
    insert.reset();
}

class sqlite_user_store final : public user_store {
  public:
    static constexpr std::size_t default_max_users = 100'000;

    // `seed` is called only when this file has never held the users (hashing the seed passwords is slow).
    sqlite_user_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::function<std::vector<core::user_credentials>()>& seed,
        std::size_t max_users = default_max_users
    )
        : db_(std::move(db)), max_users_(max_users) {
        detail::seed_once(*db_->writer(), "users", [&](sqlite_connection& w) {
            detail::write_user_seed(w, seed());
        });
    }

    std::vector<core::user> list_users(const core::page_request& page) const override {
        auto r = db_->reader();
        auto s = r->prepare(std::string(user_select) + "ORDER BY id LIMIT ?1 OFFSET ?2");
        s.bind(1, static_cast<std::int64_t>(std::min<std::size_t>(page.limit, INT64_MAX)));
        s.bind(2, static_cast<std::int64_t>(std::min<std::size_t>(page.offset, INT64_MAX)));
        std::vector<core::user> out;
        while (s.step() == step::row) {
            out.push_back(credentials_at(s).profile);
        }
        return out;
    }

    std::size_t user_count() const override {
        auto r = db_->reader();
        auto s = r->prepare("SELECT count(*) FROM users");
        return s.step() == step::row ? static_cast<std::size_t>(s.int64(0)) : 0;
    }

    core::result<core::user> find_user(std::int64_t id) const override {
        auto r = db_->reader();
        auto found = user_by_id(*r, id);
        if (!found) {
            return found.error();
        }
        return std::move(found->profile);
    }

    core::result<core::user_credentials> find_credentials(std::string_view normalized_email) const override {
        auto r = db_->reader();
        return user_where(*r, "WHERE email = ?1", [&](auto& s) { s.bind(1, normalized_email); });
    }

    core::result<bool> email_taken(std::string_view normalized_email) const override {
        auto r = db_->reader();
        auto s = r->prepare("SELECT 1 FROM users WHERE email = ?1");
        s.bind(1, normalized_email);
        return s.step() == step::row;
    }

    core::result<core::user> create_user(const core::user_draft& draft) override {
        return recorded(db_->write([&](sqlite_connection& w) -> core::result<core::user> {
            auto count = w.prepare("SELECT count(*) FROM users");
            if (count.step() == step::row && static_cast<std::size_t>(count.int64(0)) >= max_users_) {
                return core::errc::storage_full;
            }
            // AUTOINCREMENT: ids of deleted users are never given again, as in the memory adapter.
            auto insert = w.prepare(
                "INSERT INTO users (email, name, role, avatar, password_hash, created_at, updated_at) "
                "VALUES (?1,?2,?3,?4,?5,?6,?6)"
            );
            insert.bind(1, std::string_view(draft.email)).bind(2, std::string_view(draft.name));
            insert.bind(3, std::string_view(draft.role)).bind(4, std::string_view(draft.avatar));
            insert.bind(5, std::string_view(draft.password_hash)).bind(6, detail::now_ms());
            if (insert.step() == step::constraint) {
                return core::errc::conflict;  // the e-mail is taken
            }
            auto created = user_by_id(w, w.last_insert_id());
            if (!created) {
                return created.error();
            }
            return std::move(created->profile);
        }));
    }

    core::result<core::user> update_user(std::int64_t id, const core::user_patch& patch) override {
        return recorded(db_->write([&](sqlite_connection& w) -> core::result<core::user> {
            auto current = detail::writable(user_by_id(w, id), is_seed_user, core::errc::seed_user_read_only);
            if (!current) {
                return current.error();
            }
            auto update = w.prepare(
                "UPDATE users SET email = ?2, name = ?3, role = ?4, avatar = ?5, password_hash = ?6, "
                "updated_at "
                "= ?7 "
                "WHERE id = ?1"
            );
            const auto& p = current->profile;
            update.bind(1, id).bind(2, std::string_view(patch.email ? *patch.email : p.email));
            update.bind(3, std::string_view(patch.name ? *patch.name : p.name));
            update.bind(4, std::string_view(patch.role ? *patch.role : p.role));
            update.bind(5, std::string_view(patch.avatar ? *patch.avatar : p.avatar));
            update.bind(
                6, std::string_view(patch.password_hash ? *patch.password_hash : current->password_hash)
            );
            update.bind(7, detail::now_ms());
            if (update.step() == step::constraint) {
                return core::errc::conflict;  // the new e-mail is another user's
            }
            auto updated = user_by_id(w, id);
            if (!updated) {
                return updated.error();
            }
            return std::move(updated->profile);
        }));
    }

    core::result<void> delete_user(std::int64_t id) override {
        auto deleted = db_->delete_row("users", id, core::errc::seed_user_read_only);
        if (deleted) {
            db_->record_after_commit(db_->user_changes, core::row_table::users, id);
        }
        return deleted;
    }

    std::uint64_t revision() const override { return db_->user_changes.revision(); }

    core::result<core::row_changes> changes_since(std::uint64_t since) const override {
        return db_->user_changes.changes_since(since);
    }

  private:
    // A committed write's answer, after recording its user in the journal when it succeeded (once
    // committed, so a cache built before the write holds an older revision).
    core::result<core::user> recorded(core::result<core::user> written) {
        if (written) {
            db_->record_after_commit(db_->user_changes, core::row_table::users, written->id);
        }
        return written;
    }

    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_users_;
};

}  // namespace

std::unique_ptr<user_store> make_sqlite_user_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::function<std::vector<core::user_credentials>()>& seed
) {
    return std::make_unique<sqlite_user_store>(std::move(db), seed);
}

namespace detail {

void write_user_seed(sqlite_connection& db, const std::vector<core::user_credentials>& users) {
    auto insert = db.prepare(
        "INSERT INTO users (id, email, name, role, avatar, password_hash, created_at, updated_at, seed) "
        "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"
    );
    for (auto u : users) {
        std::optional<std::string> normalized = core::normalize_email(u.profile.email);
        if (!normalized) {
            throw std::invalid_argument("invalid e-mail for user " + std::to_string(u.profile.id));
        }
        u.profile.email = std::move(*normalized);
        insert_seed_user(insert, u);
    }
}

}  // namespace detail

}  // namespace storefront::storage
