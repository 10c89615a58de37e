// pg_pet_store: pets as rows (category in columns, photo URLs and tags as arrays), status and tag queries
// in SQL, upserts for client-chosen ids, single-statement read-modify-writes.

#include "storage/pet_store.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/found.hpp"
#include "common/write_row.hpp"
#include "core/pet_rules.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/columns.hpp"
#include "postgres/reset.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;
using detail::pg_rows;

constexpr std::string_view columns =
    "id, has_category, category_id, category_name, name, photo_urls, tag_ids, tag_names, status";

std::vector<core::pet> pets_of(const pg_rows& r) {
    std::vector<core::pet> out;
    for (int row = 0; row < r.size(); ++row) {
        core::pet p;
        p.id = r.int64(row, 0);
        if (r.boolean(row, 1)) {
            p.category =
                core::pet_category{detail::optional_int64(r, row, 2), detail::optional_text(r, row, 3)};
        }
        p.name = r.text(row, 4);
        p.photo_urls = detail::parse_array_no_nulls(r.text(row, 5));
        const auto ids = detail::parse_array(r.text(row, 6));
        const auto names = detail::parse_array(r.text(row, 7));
        for (std::size_t i = 0; i < ids.size() && i < names.size(); ++i) {
            core::pet_tag tag;
            if (ids[i]) {
                tag.id = std::stoll(*ids[i]);
            }
            tag.name = names[i];
            p.tags.push_back(std::move(tag));
        }
        if (!r.is_null(row, 8)) {
            p.status = core::parse_pet_status(r.text(row, 8));
        }
        out.push_back(std::move(p));
    }
    return out;
}

// $1..$9 in the order of `columns`.
pg_params pet_params(const core::pet& p) {
    std::vector<std::optional<std::string>> ids;
    std::vector<std::optional<std::string>> names;
    for (const auto& t : p.tags) {
        ids.push_back(t.id ? std::optional(std::to_string(*t.id)) : std::nullopt);
        names.push_back(t.name);
    }
    pg_params params;
    params.add(p.id).add(p.category.has_value());
    params.add(p.category ? p.category->id : std::nullopt).add(p.category ? p.category->name : std::nullopt);
    params.add(p.name).add(detail::format_array(p.photo_urls));
    params.add(detail::format_array(ids)).add(detail::format_array(names));
    params.add(p.status ? std::optional(std::string(core::to_string(*p.status))) : std::nullopt);
    return params;
}

constexpr std::string_view upsert_pet =
    "INSERT INTO pets (id, has_category, category_id, category_name, name, photo_urls, tag_ids, tag_names, "
    "status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO UPDATE SET "
    "has_category = excluded.has_category, category_id = excluded.category_id, "
    "category_name = excluded.category_name, name = excluded.name, photo_urls = excluded.photo_urls, "
    "tag_ids = excluded.tag_ids, tag_names = excluded.tag_names, status = excluded.status";

// The one pet of `r` (a lookup or a write's RETURNING), or errc::not_found.
core::result<core::pet> one_pet(const pg_rows& r) {
    return detail::first_or_not_found(pets_of(r));
}

class pg_pet_store final : public pet_store {
  public:
    pg_pet_store(const pg_target& target, std::size_t pool_size, std::vector<core::pet> seed)
        : aggregate_(
              target,
              pool_size,
              "pets",
              [seed = std::move(seed)](pg_connection& conn) { detail::write_rows(conn, seed); },
              false
          ) {}

    core::result<core::pet> find(std::int64_t id) const override {
        auto db = aggregate_.connection();
        return one_pet(
            db->exec("SELECT " + std::string(columns) + " FROM pets WHERE id = $1", pg_params().add(id))
        );
    }

    std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses) const override {
        std::vector<std::string> names;
        for (const auto s : statuses) {
            names.emplace_back(core::to_string(s));
        }
        auto db = aggregate_.connection();
        return pets_of(db->exec(
            "SELECT " + std::string(columns) + " FROM pets WHERE status = ANY($1::text[]) ORDER BY id",
            pg_params().add(detail::format_array(names))
        ));
    }

    std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names) const override {
        auto db = aggregate_.connection();
        return pets_of(db->exec(
            "SELECT " + std::string(columns) + " FROM pets WHERE tag_names && $1::text[] ORDER BY id",
            pg_params().add(detail::format_array(tag_names))
        ));
    }

    core::pet add(core::pet pet) override {
        return aggregate_.write([&](pg_connection& db) {
            aggregate_.lock(db);
            detail::add_row(db, "pets", pet.id, pet);
            return pet;
        });
    }

    core::result<core::pet> replace(const core::pet& pet) override {
        return aggregate_.write([&](pg_connection& db) -> core::result<core::pet> {
            const auto changed = db.exec(
                "UPDATE pets SET has_category = $2, category_id = $3, category_name = $4, name = $5, "
                "photo_urls = $6, tag_ids = $7, tag_names = $8, status = $9 WHERE id = $1",
                pet_params(pet)
            );
            if (changed.affected() == 0) {
                return core::errc::not_found;
            }
            return pet;
        });
    }

    core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override {
        return aggregate_.write([&](pg_connection& db) {
            return one_pet(db.exec(
                "UPDATE pets SET name = coalesce($2, name), status = coalesce($3, status) WHERE id = $1 "
                "RETURNING " +
                    std::string(columns),
                pg_params().add(id).add(name).add(
                    status ? std::optional(std::string(core::to_string(*status))) : std::nullopt
                )
            ));
        });
    }

    core::result<core::pet> add_photo_url(std::int64_t id, std::string url) override {
        return aggregate_.write([&](pg_connection& db) {
            return one_pet(db.exec(
                "UPDATE pets SET photo_urls = array_append(photo_urls, $2::text) WHERE id = $1 RETURNING " +
                    std::string(columns),
                pg_params().add(id).add(url)
            ));
        });
    }

    core::result<void> remove(std::int64_t id) override { return aggregate_.remove_row("pets", id); }

    std::size_t count() const override { return aggregate_.count_rows("pets"); }

  private:
    mutable detail::pg_aggregate aggregate_;
};

}  // namespace

std::unique_ptr<pet_store> make_pg_pet_store(
    const pg_target& target, std::size_t pool_size, std::vector<core::pet> seed
) {
    return std::make_unique<pg_pet_store>(target, pool_size, std::move(seed));
}

namespace detail {

void write_row(pg_connection& conn, const core::pet& pet) {
    (void)conn.exec(upsert_pet, pet_params(pet));
}

}  // namespace detail

}  // namespace storefront::storage
