#pragma once
// pet_store on SQLite: pets with their optional category inline, photo URLs and tags in child tables kept
// in order. Every write is one IMMEDIATE transaction. Blocking: callers offload it.

#include <memory>
#include <vector>

#include "sqlite/database.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class sqlite_pet_store final : public pet_store {
  public:
    // Writes `seed` the first time this file gets pets, never again.
    sqlite_pet_store(std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet>& seed);

    [[nodiscard]] core::result<core::pet> find(std::int64_t id) const override;
    [[nodiscard]] std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses
    ) const override;
    [[nodiscard]] std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names
    ) const override;
    [[nodiscard]] core::pet add(core::pet pet) override;
    [[nodiscard]] core::result<core::pet> replace(const core::pet& pet) override;
    [[nodiscard]] core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override;
    [[nodiscard]] core::result<core::pet> add_photo_url(std::int64_t id, std::string url) override;
    [[nodiscard]] core::result<void> remove(std::int64_t id) override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace storefront::storage
