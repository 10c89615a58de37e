// memory_order_store: an id-ordered map; the inventory is summed on demand (orders are few).

#include <map>

#include "memory/id_rows.hpp"
#include "memory/stores.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

namespace {

class memory_order_store final : public detail::id_rows_port<order_store, core::pet_order> {
  public:
    using id_rows_port::id_rows_port;

    std::map<core::order_status, std::int64_t> inventory() const override {
        std::map<core::order_status, std::int64_t> out{
            {core::order_status::placed, 0},
            {core::order_status::approved, 0},
            {core::order_status::delivered, 0}};
        rows_.for_each([&](const core::pet_order& o) { out[o.status] += o.quantity; });
        return out;
    }
};

}  // namespace

std::unique_ptr<order_store> make_memory_order_store(std::vector<core::pet_order> orders) {
    return std::make_unique<memory_order_store>(std::move(orders), "invalid or duplicate order id ");
}

}  // namespace storefront::storage
