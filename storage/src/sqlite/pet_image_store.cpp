// sqlite_pet_image_store: ids from AUTOINCREMENT (never given twice, as the memory adapter's counter); the
// budget check and the insert share one IMMEDIATE transaction.

#include <cstddef>
#include <memory>
#include <utility>

#include "common/found.hpp"
#include "sqlite/database.hpp"
#include "sqlite/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

using detail::sqlite_connection;
using step = detail::sqlite_statement::step_result;

class sqlite_pet_image_store final : public pet_image_store {
  public:
    sqlite_pet_image_store(std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes)
        : db_(std::move(db)), max_bytes_(max_bytes) {}

    core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override {
        return db_->write([&](sqlite_connection& w) -> core::result<std::int64_t> {
            if (auto room = detail::reserve_bytes(w, "pet_images", image.bytes.size(), max_bytes_); !room) {
                return room.error();
            }
            auto insert =
                w.prepare("INSERT INTO pet_images (pet_id, media_type, size, bytes) VALUES (?1,?2,?3,?4)");
            insert.bind(1, pet_id).bind(2, std::string_view(image.media_type));
            insert.bind(3, static_cast<std::int64_t>(image.bytes.size())).bind_blob(4, image.bytes);
            (void)insert.step();
            const std::int64_t id = w.last_insert_id();
            return id;
        });
    }

    core::result<std::shared_ptr<const core::pet_image>> find(std::int64_t pet_id, std::int64_t image_id)
        const override {
        auto r = db_->reader();
        auto s = r->prepare("SELECT media_type, bytes FROM pet_images WHERE id = ?1 AND pet_id = ?2");
        s.bind(1, image_id).bind(2, pet_id);
        if (s.step() != step::row) {
            return core::errc::not_found;
        }
        return std::make_shared<const core::pet_image>(core::pet_image{s.text(0), s.blob(1)});
    }

    void remove_for_pet(std::int64_t pet_id) override {
        db_->write([&](sqlite_connection& w) {
            (void)detail::delete_where(w, "DELETE FROM pet_images WHERE pet_id = ?1", pet_id);
        });
    }

  private:
    std::shared_ptr<detail::sqlite_database> db_;
    std::size_t max_bytes_;
};

}  // namespace

std::unique_ptr<pet_image_store> make_sqlite_pet_image_store(
    std::shared_ptr<detail::sqlite_database> db, std::size_t max_bytes
) {
    return std::make_unique<sqlite_pet_image_store>(std::move(db), max_bytes);
}

}  // namespace storefront::storage
