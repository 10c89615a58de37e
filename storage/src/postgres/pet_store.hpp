#pragma once
// pet_store on PostgreSQL: pets as rows, photo URLs and tags as array columns. Ids chosen by the store are
// "largest + 1" under the aggregate's advisory lock, as the public petstore (and the memory adapters) number
// them; every write is one transaction that notifies the aggregate's channel. Blocking: run through the
// offload pool.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "postgres/aggregate.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class pg_pet_store final : public pet_store {
  public:
    pg_pet_store(const std::string& dsn, std::size_t pool_size, std::vector<core::pet> seed);

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
    mutable detail::pg_aggregate aggregate_;
};

namespace detail {
// Writes the seed into empty tables (first start and reset_to_seed).
void write_pet_seed(pg_connection& conn, const std::vector<core::pet>& pets);
}  // namespace detail

}  // namespace storefront::storage
