#pragma once
// In-memory order_store: orders in an id-ordered map behind a shared_mutex.

#include <map>
#include <shared_mutex>

#include "storage/pet_store.hpp"

namespace storefront::storage {

class memory_order_store final : public order_store {
  public:
    // Throws std::invalid_argument for a non-positive or duplicate id.
    explicit memory_order_store(std::vector<core::pet_order> orders);

    [[nodiscard]] core::result<core::pet_order> find(std::int64_t id) const override;
    [[nodiscard]] core::pet_order add(core::pet_order order) override;
    [[nodiscard]] core::result<void> remove(std::int64_t id) override;
    [[nodiscard]] std::map<core::order_status, std::int64_t> inventory() const override;

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::pet_order> orders_;
};

}  // namespace storefront::storage
