// pg_pet_image_store: images as bytea rows with ids from an identity sequence, the byte budget checked
// against the table's total under the aggregate's lock.

#include <cstddef>
#include <memory>
#include <string>

#include "postgres/aggregate.hpp"
#include "postgres/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

using detail::pg_connection;
using detail::pg_params;

namespace {

class pg_pet_image_store final : public pet_image_store {
  public:
    pg_pet_image_store(const pg_target& target, std::size_t pool_size, std::size_t max_bytes)
        : aggregate_(target, pool_size, "pet_images", {}, false), max_bytes_(max_bytes) {}

    core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override {
        return aggregate_.write([&](pg_connection& db) -> core::result<std::int64_t> {
            if (auto room = aggregate_.reserve_bytes(db, "pet_images", image.bytes.size(), max_bytes_);
                !room) {
                return room.error();
            }
            return db
                .exec(
                    "INSERT INTO pet_images (pet_id, media_type, bytes) VALUES ($1, $2, $3) RETURNING id",
                    pg_params().add(pet_id).add(image.media_type).add_bytes(image.bytes)
                )
                .int64(0, 0);
        });
    }

    core::result<std::shared_ptr<const core::pet_image>> find(std::int64_t pet_id, std::int64_t image_id)
        const override {
        auto db = aggregate_.connection();
        const auto r = db->exec(
            "SELECT media_type, bytes FROM pet_images WHERE pet_id = $1 AND id = $2",
            pg_params().add(pet_id).add(image_id)
        );
        if (r.empty()) {
            return core::errc::not_found;
        }
        return std::make_shared<const core::pet_image>(core::pet_image{
            std::string(r.text(0, 0)), r.bytes(0, 1)});
    }

    void remove_for_pet(std::int64_t pet_id) override {
        (void)aggregate_.write([&](pg_connection& db) {
            return db.exec("DELETE FROM pet_images WHERE pet_id = $1", pg_params().add(pet_id)).affected() >
                   0;
        });
    }

  private:
    mutable detail::pg_aggregate aggregate_;
    std::size_t max_bytes_;
};

}  // namespace

std::unique_ptr<pet_image_store> make_pg_pet_image_store(
    const pg_target& target, std::size_t pool_size, std::size_t max_bytes
) {
    return std::make_unique<pg_pet_image_store>(target, pool_size, max_bytes);
}

}  // namespace storefront::storage
