#pragma once
// order_store on PostgreSQL: one row per order (an existing id is replaced, as the petstore does), the
// inventory summed in SQL; every write is one transaction that notifies the aggregate's channel. Blocking:
// run through the offload pool.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "postgres/aggregate.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class pg_order_store final : public order_store {
  public:
    pg_order_store(const std::string& dsn, std::size_t pool_size, std::vector<core::pet_order> seed);

    [[nodiscard]] core::result<core::pet_order> find(std::int64_t id) const override;
    [[nodiscard]] core::pet_order add(core::pet_order order) override;
    [[nodiscard]] core::result<void> remove(std::int64_t id) override;
    [[nodiscard]] std::map<core::order_status, std::int64_t> inventory() const override;

  private:
    mutable detail::pg_aggregate aggregate_;
};

namespace detail {
// Writes the seed into empty tables (first start and reset_to_seed).
void write_order_seed(pg_connection& conn, const std::vector<core::pet_order>& orders);
}  // namespace detail

}  // namespace storefront::storage
