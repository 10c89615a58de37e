// memory_order_store: an id-ordered map; the inventory is summed on demand (orders are few).

#include "memory/order_store.hpp"

#include <limits>
#include <mutex>
#include <stdexcept>

#include "common/found.hpp"
#include "common/next_id.hpp"

namespace storefront::storage {

memory_order_store::memory_order_store(std::vector<core::pet_order> orders) {
    for (auto& o : orders) {
        const std::int64_t id = o.id;
        if (id <= 0 || !orders_.emplace(id, o).second) {
            throw std::invalid_argument("invalid or duplicate order id " + std::to_string(id));
        }
    }
}

core::result<core::pet_order> memory_order_store::find(std::int64_t id) const {
    std::shared_lock lock(mutex_);
    return detail::find_in(orders_, id);
}

core::pet_order memory_order_store::add(core::pet_order order) {
    std::unique_lock lock(mutex_);
    if (order.id == 0) {
        order.id = orders_.empty() ? 1 : next_id(orders_.rbegin()->first);
    }
    orders_.insert_or_assign(order.id, order);
    return order;
}

core::result<void> memory_order_store::remove(std::int64_t id) {
    std::unique_lock lock(mutex_);
    return detail::found_any(orders_.erase(id) > 0);
}

std::map<core::order_status, std::int64_t> memory_order_store::inventory() const {
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

}  // namespace storefront::storage
