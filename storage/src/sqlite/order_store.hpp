#pragma once
// order_store on SQLite: one row per order; the inventory is one GROUP BY. Blocking: callers offload it.

#include <memory>
#include <vector>

#include "sqlite/database.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class sqlite_order_store final : public order_store {
  public:
    // Writes `seed` the first time this file gets orders, never again.
    sqlite_order_store(std::shared_ptr<detail::sqlite_database> db, const std::vector<core::pet_order>& seed);

    [[nodiscard]] core::result<core::pet_order> find(std::int64_t id) const override;
    [[nodiscard]] core::pet_order add(core::pet_order order) override;
    [[nodiscard]] core::result<void> remove(std::int64_t id) override;
    [[nodiscard]] std::map<core::order_status, std::int64_t> inventory() const override;

  private:
    std::shared_ptr<detail::sqlite_database> db_;
};

}  // namespace storefront::storage
