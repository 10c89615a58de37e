// memory_order_store: an id-ordered map; the inventory is summed on demand (orders are few).

#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

#include "common/found.hpp"
#include "common/next_id.hpp"
#include "memory/seed_map.hpp"
#include "memory/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

constexpr auto order_id = [](const core::pet_order& o) { return o.id; };

class memory_order_store final : public order_store {
  public:
    // Throws std::invalid_argument for a non-positive or duplicate id.
    explicit memory_order_store(std::vector<core::pet_order> orders)
        : orders_(detail::seed_map<decltype(orders_)>(
              std::move(orders), order_id, order_id, "invalid or duplicate order id "
          )) {}

    core::result<core::pet_order> find(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        return detail::find_in(orders_, id);
    }

    core::pet_order add(core::pet_order order) override {
        std::unique_lock lock(mutex_);
        if (order.id == 0) {
            order.id = orders_.empty() ? 1 : next_id(orders_.rbegin()->first);
        }
        orders_.insert_or_assign(order.id, order);
        return order;
    }

    core::result<void> remove(std::int64_t id) override {
        std::unique_lock lock(mutex_);
        return detail::found_any(orders_.erase(id) > 0);
    }

    std::map<core::order_status, std::int64_t> inventory() const override {
        std::map<core::order_status, std::int64_t> out{
            {core::order_status::placed, 0},
            {core::order_status::approved, 0},
            {core::order_status::delivered, 0}};
        std::shared_lock lock(mutex_);
        for (const auto& [id, o] : orders_) {
            out[o.status] += o.quantity;
        }
        return out;
    }

    std::size_t count() const override {
        std::shared_lock lock(mutex_);
        return orders_.size();
    }

  private:
    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::pet_order> orders_;
};

}  // namespace

std::unique_ptr<order_store> make_memory_order_store(std::vector<core::pet_order> orders) {
    return std::make_unique<memory_order_store>(std::move(orders));
}

}  // namespace storefront::storage
