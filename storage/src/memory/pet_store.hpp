#pragma once
// In-memory pet_store: pets in an id-ordered map behind a shared_mutex (many readers, one writer).

#include <map>
#include <shared_mutex>

#include "storage/pet_store.hpp"

namespace storefront::storage {

class memory_pet_store final : public pet_store {
  public:
    // Throws std::invalid_argument for a non-positive or duplicate id.
    explicit memory_pet_store(std::vector<core::pet> pets);

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
    template <class Keep>
    [[nodiscard]] std::vector<core::pet> select(Keep&& keep) const;

    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::pet> pets_;
};

}  // namespace storefront::storage
