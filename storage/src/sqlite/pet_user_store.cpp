// sqlite_pet_user_store: the username is the primary key (BINARY collation: case-sensitive, as the
// petstore); ids are one more than the largest in use, as in the memory adapter.

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/seed_once.hpp"
#include "common/write_row.hpp"
#include "sqlite/columns.hpp"
#include "sqlite/database.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

std::optional<core::pet_user_credentials> user_named(sqlite_connection& db, std::string_view username) {
    auto s = db.prepare(
        "SELECT username, id, first_name, last_name, email, phone, user_status, password_hash FROM pet_users "
        "WHERE username = ?1"
    );
    s.bind(1, username);
    if (s.step() != step::row) {
        return std::nullopt;
    }
    core::pet_user_credentials c;
    auto& u = c.profile;
    detail::read_columns(
        s, 0, u.username, u.id, u.first_name, u.last_name, u.email, u.phone, u.user_status, c.password_hash
    );
    return c;
}

// True when there was a user of that name.
bool delete_user(sqlite_connection& db, std::string_view username) {
    return detail::delete_where(db, "DELETE FROM pet_users WHERE username = ?1", username);
}

class sqlite_pet_user_store final : public pet_user_store {
  public:
    // `seed` is called only when this file has never held the pet users (it hashes a password: slow).
    sqlite_pet_user_store(
        std::shared_ptr<detail::sqlite_database> db,
        const std::function<std::vector<core::pet_user_credentials>()>& seed
    )
        : db_(std::move(db)) {
        detail::seed_once(*db_->writer(), "pet_users", [&](sqlite_connection& w) {
            detail::write_rows(w, seed());
        });
    }

    core::result<core::pet_user_credentials> find(std::string_view username) const override {
        auto r = db_->reader();
        return detail::found(user_named(*r, username));
    }

    core::pet_user add(core::pet_user_credentials user) override {
        return db_->write([&](sqlite_connection& w) -> core::pet_user {
            detail::add_row(w, "pet_users", user.profile.id, user);
            return user.profile;
        });
    }

    core::result<core::pet_user> replace(std::string_view username, core::pet_user_credentials user)
        override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::pet_user> {
            const auto current = user_named(w, username);
            if (!current) {
                return core::errc::not_found;
            }
            if (user.profile.username != username && user_named(w, user.profile.username)) {
                return core::errc::conflict;
            }
            if (user.profile.id == 0) {
                user.profile.id = current->profile.id;
            }
            (void)delete_user(w, username);
            detail::write_row(w, user);
            return user.profile;
        });
    }

    core::result<void> remove(std::string_view username) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            return detail::found_any(delete_user(w, username));
        });
    }

    std::size_t count() const override { return detail::count_rows(*db_, "pet_users"); }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<pet_user_store> make_sqlite_pet_user_store(
    std::shared_ptr<detail::sqlite_database> db,
    const std::function<std::vector<core::pet_user_credentials>()>& seed
) {
    return std::make_unique<sqlite_pet_user_store>(std::move(db), seed);
}

namespace detail {

// Inserts `u`, overwriting the user of the same username.
void write_row(sqlite_connection& db, const core::pet_user_credentials& u) {
    const auto& p = u.profile;
    auto upsert = db.prepare(
        "INSERT OR REPLACE INTO pet_users (username, id, first_name, last_name, email, phone, user_status, "
        "password_hash) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"
    );
    upsert.bind(1, std::string_view(p.username)).bind(2, p.id);
    upsert.bind_optional(3, p.first_name);
    upsert.bind_optional(4, p.last_name);
    upsert.bind_optional(5, p.email);
    upsert.bind_optional(6, p.phone);
    p.user_status ? upsert.bind(7, static_cast<std::int64_t>(*p.user_status)) : upsert.bind_null(7);
    upsert.bind(8, std::string_view(u.password_hash));
    (void)upsert.step();
}

}  // namespace detail

}  // namespace storefront::storage
