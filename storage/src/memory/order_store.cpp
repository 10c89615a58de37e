// memory_order_store: an id-ordered map; the inventory is summed on demand (orders are few).

#include <map>

#include "memory/id_rows.hpp"
#include "memory/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

class memory_order_store final : public order_store {
  public:
    // Throws std::invalid_argument for a non-positive or duplicate id.
    explicit memory_order_store(std::vector<core::pet_order> orders)
        : orders_(std::move(orders), "invalid or duplicate order id ") {}

    core::result<core::pet_order> find(std::int64_t id) const override { return orders_.find(id); }
    core::pet_order add(core::pet_order order) override { return orders_.add(std::move(order)); }
    core::result<void> remove(std::int64_t id) override { return orders_.remove(id); }
    std::size_t count() const override { return orders_.count(); }

    std::map<core::order_status, std::int64_t> inventory() const override {
        std::map<core::order_status, std::int64_t> out{
            {core::order_status::placed, 0},
            {core::order_status::approved, 0},
            {core::order_status::delivered, 0}};
        orders_.for_each([&](const core::pet_order& o) { out[o.status] += o.quantity; });
        return out;
    }

  private:
    detail::id_rows<core::pet_order> orders_;
};

}  // namespace

std::unique_ptr<order_store> make_memory_order_store(std::vector<core::pet_order> orders) {
    return std::make_unique<memory_order_store>(std::move(orders));
}

}  // namespace storefront::storage
