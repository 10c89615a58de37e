#pragma once
// The pet store surface (/api/v3) on PostgreSQL: pets (photo URLs and tags as array columns), orders,
// pet-store users keyed by username, and uploaded images as bytea. Ids chosen by the store are "largest + 1"
// under the aggregate's advisory lock, as the public petstore (and the memory adapters) number them; every
// write is one transaction that notifies the aggregate's channel. Blocking: run through the offload pool.

#include <cstddef>
#include <string>
#include <vector>

#include "pg_aggregate.hpp"
#include "storage/pet_store.hpp"

namespace storefront::storage {

class pg_pet_store final : public pet_store {
  public:
    pg_pet_store(const std::string& dsn, std::size_t pool_size, std::vector<core::pet> seed);

    [[nodiscard]] std::optional<core::pet> find(std::int64_t id) const override;
    [[nodiscard]] std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses
    ) const override;
    [[nodiscard]] std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names
    ) const override;
    [[nodiscard]] core::pet add(core::pet pet) override;
    [[nodiscard]] std::optional<core::pet> replace(const core::pet& pet) override;
    [[nodiscard]] std::optional<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override;
    [[nodiscard]] std::optional<core::pet> add_photo_url(std::int64_t id, std::string url) override;
    bool remove(std::int64_t id) override;

  private:
    mutable detail::pg_aggregate aggregate_;
};

class pg_order_store final : public order_store {
  public:
    pg_order_store(const std::string& dsn, std::size_t pool_size, std::vector<core::pet_order> seed);

    [[nodiscard]] std::optional<core::pet_order> find(std::int64_t id) const override;
    [[nodiscard]] core::pet_order add(core::pet_order order) override;
    bool remove(std::int64_t id) override;
    [[nodiscard]] std::map<core::order_status, std::int64_t> inventory() const override;

  private:
    mutable detail::pg_aggregate aggregate_;
};

class pg_pet_user_store final : public pet_user_store {
  public:
    // `seed` is called only when the database has not been seeded yet (it hashes a password).
    pg_pet_user_store(
        const std::string& dsn,
        std::size_t pool_size,
        std::function<std::vector<core::pet_user_credentials>()> seed
    );

    [[nodiscard]] std::optional<core::pet_user_credentials> find(std::string_view username) const override;
    [[nodiscard]] core::pet_user add(core::pet_user_credentials user) override;
    [[nodiscard]] core::result<core::pet_user> replace(
        std::string_view username, core::pet_user_credentials user
    ) override;
    bool remove(std::string_view username) override;

  private:
    mutable detail::pg_aggregate aggregate_;
};

class pg_pet_image_store final : public pet_image_store {
  public:
    pg_pet_image_store(const std::string& dsn, std::size_t pool_size, std::size_t max_bytes);

    [[nodiscard]] core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) override;
    [[nodiscard]] std::shared_ptr<const core::pet_image> find(std::int64_t pet_id, std::int64_t image_id)
        const override;
    void remove_for_pet(std::int64_t pet_id) override;

  private:
    mutable detail::pg_aggregate aggregate_;
    std::size_t max_bytes_;
};

namespace detail {
// Seed writers for empty tables (first start and reset_to_seed).
void write_pet_seed(pg_connection& conn, const std::vector<core::pet>& pets);
void write_order_seed(pg_connection& conn, const std::vector<core::pet_order>& orders);
void write_pet_user_seed(pg_connection& conn, const std::vector<core::pet_user_credentials>& users);
}  // namespace detail

}  // namespace storefront::storage
