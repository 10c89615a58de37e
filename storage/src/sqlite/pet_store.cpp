// sqlite_pet_store: pets, their photo URLs and tags; a pet is read back with its children and written as
// "replace the row and its children", so a partial pet can never be seen.

#include "storage/pet_store.hpp"

#include <memory>
#include <utility>
#include <vector>

#include "common/found.hpp"
#include "common/seed_once.hpp"
#include "common/write_row.hpp"
#include "sqlite/database.hpp"
#include "sqlite/reset.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using detail::sqlite_statement;
using step = sqlite_statement::step_result;

// "?,?,?" for `count` values bound from `first` on (the values themselves are never spliced into SQL).
std::string placeholders(std::size_t count, int first) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        out += (i ? ",?" : "?") + std::to_string(first + static_cast<int>(i));
    }
    return out;
}

// The pets a WHERE clause selects, in id order, each with its photos and tags.
template <class Bind>
std::vector<core::pet> pets_where(sqlite_connection& db, std::string_view where, Bind&& bind) {
    auto s = db.prepare(
        "SELECT id, name, status, has_category, category_id, category_name FROM pets " + std::string(where) +
        " ORDER BY id"
    );
    bind(s);
    std::vector<core::pet> out;
    while (s.step() == step::row) {
        core::pet p;
        p.id = s.int64(0);
        p.name = s.text(1);
        if (!s.is_null(2)) {
            p.status = static_cast<core::pet_status>(s.int64(2));
        }
        if (s.int64(3) != 0) {
            p.category = core::pet_category{s.optional_int64(4), s.optional_text(5)};
        }
        out.push_back(std::move(p));
    }
    auto photos = db.prepare("SELECT url FROM pet_photos WHERE pet_id = ?1 ORDER BY position");
    auto tags = db.prepare("SELECT tag_id, name FROM pet_tags WHERE pet_id = ?1 ORDER BY position");
    for (auto& p : out) {
        photos.reset();
        photos.bind(1, p.id);
        while (photos.step() == step::row) {
            p.photo_urls.push_back(photos.text(0));
        }
        tags.reset();
        tags.bind(1, p.id);
        while (tags.step() == step::row) {
            p.tags.push_back({tags.optional_int64(0), tags.optional_text(1)});
        }
    }
    return out;
}

std::optional<core::pet> pet_by_id(sqlite_connection& db, std::int64_t id) {
    auto found = pets_where(db, "WHERE id = ?1", [&](auto& s) { s.bind(1, id); });
    return found.empty() ? std::nullopt : std::optional<core::pet>(std::move(found.front()));
}

void insert_photo(sqlite_connection& db, std::int64_t pet_id, std::size_t position, std::string_view url) {
    auto insert = db.prepare("INSERT INTO pet_photos (pet_id, position, url) VALUES (?1, ?2, ?3)");
    insert.bind(1, pet_id).bind(2, static_cast<std::int64_t>(position)).bind(3, url);
    (void)insert.step();
}

class sqlite_pet_store final : public pet_store {
  public:
    // Writes `seed` the first time this file gets pets, never again.
    sqlite_pet_store(std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet>& seed)
        : db_(std::move(db)) {
        detail::seed_once(*db_->writer(), "pets", [&](sqlite_connection& w) { detail::write_rows(w, seed); });
    }

    core::result<core::pet> find(std::int64_t id) const override {
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);  // the row and its children from one state
        return detail::found(pet_by_id(*r, id));
    }

    std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses) const override {
        if (statuses.empty()) {
            return {};
        }
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        return pets_where(*r, "WHERE status IN (" + placeholders(statuses.size(), 1) + ")", [&](auto& s) {
            for (std::size_t i = 0; i < statuses.size(); ++i) {
                s.bind(static_cast<int>(i) + 1, static_cast<std::int64_t>(statuses[i]));
            }
        });
    }

    std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names) const override {
        if (tag_names.empty()) {
            return {};
        }
        auto r = db_->reader();
        sqlite_connection::read_transaction snapshot(*r);
        const std::string where = "WHERE id IN (SELECT pet_id FROM pet_tags WHERE name IN (" +
                                  placeholders(tag_names.size(), 1) + "))";
        return pets_where(*r, where, [&](auto& s) {
            for (std::size_t i = 0; i < tag_names.size(); ++i) {
                s.bind(static_cast<int>(i) + 1, std::string_view(tag_names[i]));
            }
        });
    }

    core::pet add(core::pet pet) override {
        return db_->write([&](sqlite_connection& w) -> core::pet {
            detail::add_row(w, "pets", pet.id, pet);
            return pet;
        });
    }

    core::result<core::pet> replace(const core::pet& pet) override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::pet> {
            auto exists = w.prepare("SELECT 1 FROM pets WHERE id = ?1");
            exists.bind(1, pet.id);
            if (exists.step() != step::row) {
                return core::errc::not_found;
            }
            exists.reset();
            detail::write_row(w, pet);
            return pet;
        });
    }

    core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::pet> {
            auto pet = pet_by_id(w, id);
            if (!pet) {
                return core::errc::not_found;
            }
            if (name) {
                pet->name = std::move(*name);
            }
            if (status) {
                pet->status = status;
            }
            auto update = w.prepare("UPDATE pets SET name = ?2, status = ?3 WHERE id = ?1");
            update.bind(1, id).bind(2, std::string_view(pet->name));
            pet->status ? update.bind(3, static_cast<std::int64_t>(*pet->status)) : update.bind_null(3);
            (void)update.step();
            return std::move(*pet);
        });
    }

    core::result<core::pet> add_photo_url(std::int64_t id, std::string url) override {
        return db_->write([&](sqlite_connection& w) -> core::result<core::pet> {
            auto pet = pet_by_id(w, id);
            if (!pet) {
                return core::errc::not_found;
            }
            insert_photo(w, id, pet->photo_urls.size(), url);
            pet->photo_urls.push_back(std::move(url));
            return std::move(*pet);
        });
    }

    core::result<void> remove(std::int64_t id) override {
        return db_->write([&](sqlite_connection& w) -> core::result<void> {
            return detail::found_any(detail::delete_where(w, "DELETE FROM pets WHERE id = ?1", id)
            );  // photos and tags follow (cascade)
        });
    }

    std::size_t count() const override { return detail::count_rows(*db_, "pets"); }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace

std::unique_ptr<pet_store> make_sqlite_pet_store(
    std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet>& seed
) {
    return std::make_unique<sqlite_pet_store>(std::move(db), seed);
}

namespace detail {

// Stores `p` whole: the row is inserted or overwritten and its children replaced.
void write_row(sqlite_connection& db, const core::pet& p) {
    auto upsert = db.prepare(
        "INSERT INTO pets (id, name, status, has_category, category_id, category_name) "
        "VALUES (?1,?2,?3,?4,?5,?6) ON CONFLICT(id) DO UPDATE SET name = excluded.name, "
        "status = excluded.status, has_category = excluded.has_category, category_id = excluded.category_id, "
        "category_name = excluded.category_name"
    );
    upsert.bind(1, p.id).bind(2, std::string_view(p.name));
    p.status ? upsert.bind(3, static_cast<std::int64_t>(*p.status)) : upsert.bind_null(3);
    upsert.bind(4, static_cast<std::int64_t>(p.category.has_value()));
    upsert.bind_optional(5, p.category ? p.category->id : std::nullopt);
    upsert.bind_optional(6, p.category ? p.category->name : std::nullopt);
    (void)upsert.step();
    for (const char* table : {"pet_photos", "pet_tags"}) {
        auto clear = db.prepare("DELETE FROM " + std::string(table) + " WHERE pet_id = ?1");
        clear.bind(1, p.id);
        (void)clear.step();
    }
    for (std::size_t i = 0; i < p.photo_urls.size(); ++i) {
        insert_photo(db, p.id, i, p.photo_urls[i]);
    }
    auto tag = db.prepare("INSERT INTO pet_tags (pet_id, position, tag_id, name) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t i = 0; i < p.tags.size(); ++i) {
        tag.reset();
        tag.bind(1, p.id).bind(2, static_cast<std::int64_t>(i));
        tag.bind_optional(3, p.tags[i].id);
        tag.bind_optional(4, p.tags[i].name);
        (void)tag.step();
    }
}

}  // namespace detail

}  // namespace storefront::storage
