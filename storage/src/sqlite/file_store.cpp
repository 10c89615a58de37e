// sqlite_file_store: uploads as BLOB rows named by 128 random bits; the budget check and the insert share
// one IMMEDIATE transaction, so concurrent uploads cannot overrun it together.

#include "storage/file_store.hpp"

#include <cstddef>
#include <memory>
#include <utility>

#include "common/budget.hpp"
#include "common/random_name.hpp"
#include "sqlite/database.hpp"
#include "sqlite/stores.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using step = detail::sqlite_statement::step_result;

class sqlite_file_store final : public file_store {
  public:
    sqlite_file_store(std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes)
        : db_(std::move(db)), max_bytes_(max_bytes) {}

    core::result<std::shared_ptr<const stored_file>> add(
        std::string extension, std::string original_name, std::string media_type, std::string bytes
    ) override {
        auto file = detail::new_upload(std::move(original_name), std::move(media_type), std::move(bytes));
        return db_->write([&](sqlite_connection& w) -> core::result<std::shared_ptr<const stored_file>> {
            if (auto room = detail::reserve_bytes(w, "files", file->bytes.size(), max_bytes_); !room) {
                return room.error();
            }
            auto insert = w.prepare(
                "INSERT INTO files (name, original_name, media_type, size, bytes, created_at) VALUES "
                "(?1,?2,?3,?4,?5,?6)"
            );
            do {  // a name collision (2^-128) only costs another draw
                file->name = detail::random_name() + extension;
                insert.reset();
                insert.bind(1, std::string_view(file->name)).bind(2, std::string_view(file->original_name));
                insert.bind(3, std::string_view(file->media_type));
                insert.bind(4, static_cast<std::int64_t>(file->bytes.size())).bind_blob(5, file->bytes);
                insert.bind(6, file->created_at);
            } while (insert.step() == step::constraint);
            return std::shared_ptr<const stored_file>(std::move(file));
        });
    }

    core::result<std::shared_ptr<const stored_file>> find(std::string_view name) const override {
        auto r = db_->reader();
        auto s =
            r->prepare("SELECT name, original_name, media_type, bytes, created_at FROM files WHERE name = ?1"
            );
        s.bind(1, name);
        if (s.step() != step::row) {
            return core::errc::not_found;
        }
        auto file = std::make_shared<stored_file>();
        file->name = s.text(0);
        file->original_name = s.text(1);
        file->media_type = s.text(2);
        file->bytes = s.blob(3);
        file->created_at = s.int64(4);
        return std::shared_ptr<const stored_file>(std::move(file));
    }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_bytes_;
};

}  // namespace

std::unique_ptr<file_store> make_sqlite_file_store(
    std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes
) {
    return std::make_unique<sqlite_file_store>(std::move(db), max_bytes);
}

}  // namespace storefront::storage
