// pg_file_store: budgeted inserts with 128-bit random names, lookups by name.

#include "storage/file_store.hpp"

#include <cstddef>
#include <string>

#include "common/budget.hpp"
#include "common/random_name.hpp"
#include "postgres/aggregate.hpp"
#include "postgres/stores.hpp"

namespace storefront::storage {

namespace {

using detail::pg_connection;
using detail::pg_params;

class pg_file_store final : public file_store {
  public:
    pg_file_store(const pg_target& target, std::size_t pool_size, std::size_t max_bytes)
        : aggregate_(target, pool_size, "files", {}, false), max_bytes_(max_bytes) {}

    core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override {
        auto file = detail::new_upload(std::move(original_name), std::move(media_type), std::move(bytes));
        return aggregate_.write([&](pg_connection& db) -> core::result<std::shared_ptr<const stored_file>> {
            if (auto room = aggregate_.reserve_bytes(db, "files", file->bytes.size(), max_bytes_); !room) {
                return room.error();
            }
            do {  // a name collision (2^-128) only costs another draw
                file->name = detail::random_name() + extension;
            } while (db.exec(
                           "INSERT INTO files (name, original_name, media_type, bytes, created_at) "
                           "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING",
                           pg_params()
                               .add(file->name)
                               .add(file->original_name)
                               .add(file->media_type)
                               .add_bytes(file->bytes)
                               .add(file->created_at)
                     )
                         .affected() == 0);
            return std::shared_ptr<const stored_file>(std::move(file));
        });
    }

    core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "SELECT name, original_name, media_type, bytes, created_at FROM files WHERE name = $1",
            detail::pg_params().add(name)
        );
        if (r.empty()) {
            return core::errc::not_found;
        }
        auto file = std::make_shared<stored_file>();
        file->name = r.text(0, 0);
        file->original_name = r.text(0, 1);
        file->media_type = r.text(0, 2);
        file->bytes = r.bytes(0, 3);
        file->created_at = r.int64(0, 4);
        return std::shared_ptr<const stored_file>(std::move(file));
    }

  private:
    mutable detail::pg_aggregate aggregate_;
    std::size_t max_bytes_;
};

}  // namespace

std::unique_ptr<file_store> make_pg_file_store(
    const pg_target& target, std::size_t pool_size, std::size_t max_bytes
) {
    return std::make_unique<pg_file_store>(target, pool_size, max_bytes);
}

}  // namespace storefront::storage
