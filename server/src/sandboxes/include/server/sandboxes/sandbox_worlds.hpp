#pragma once
// The sandboxes of one process (issue 20): the view each sandbox id gets, a sandbox's own stores made at
// its first write (registered in the storage's sandbox_store, so every instance finds them), a bounded
// cache of open sandboxes (least recently used closed first when the data survives closing), DELETE's
// reset, POST /sandboxes, and a background thread that records uses and purges sandboxes idle past the TTL.

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/auth_tokens.hpp"
#include "core/pet_auth.hpp"
#include "core/sandbox.hpp"
#include "server/ops/periodic_task.hpp"
#include "server/ops/server_config.hpp"
#include "server/routing/sandbox_gateway.hpp"
#include "server/sandboxes/store_world.hpp"
#include "storage/sandbox_store.hpp"

namespace storefront::server {

// The route tables a sandbox serves, to tell which services a matched table's handlers take.
struct sandbox_tables {
    const route_table* store;
    const route_table* pets;
    const route_table* docs;
    const route_table* graphql;
};

// Rows of each kind --sandbox-rows limits (products, categories, users, pets, orders, pet store users,
// and the shop's carts, orders and payments): one per row_kind but none.
struct row_counts {
    std::array<std::size_t, static_cast<std::size_t>(row_kind::none)> of{};
};

// What the sandboxes are made from: the --sandbox-* settings, the shared storage (whose backend keeps the
// registry), what every world shares, the token settings each sandbox derives its own secrets from, and the
// route tables. The referenced objects must outlive the sandbox_worlds.
struct sandbox_setup {
    const sandbox_config& config;
    const storage::storage_config& shared;
    const world_commons& commons;
    const core::token_settings& tokens;
    const core::pet_token_settings& pet_tokens;
    sandbox_tables tables;
};

class sandbox_worlds final : public sandbox_gateway {
  public:
    // Opens the registry of the shared storage's backend (throws like the storage factory) and starts the
    // purge thread.
    explicit sandbox_worlds(const sandbox_setup& setup);
    ~sandbox_worlds() override;
    sandbox_worlds(const sandbox_worlds&) = delete;
    sandbox_worlds& operator=(const sandbox_worlds&) = delete;

    [[nodiscard]] core::sandbox_mode mode() const override { return config_.mode; }
    [[nodiscard]] boost::asio::awaitable<or_response<std::shared_ptr<const sandbox_view>>> open(
        std::string_view id, bool for_write, error_style errors
    ) override;
    [[nodiscard]] boost::asio::awaitable<std::optional<response>> admit_write(
        const sandbox_view& view, row_kind adds, error_style errors
    ) override;
    [[nodiscard]] boost::asio::awaitable<response> reset(std::string_view id) override;
    [[nodiscard]] boost::asio::awaitable<response> create() override;

    // Forgets the cached lists of the seed and of open sandboxes (the public URL in image links changed).
    void forget_cached_lists();

    // One purge pass now: records uses, removes sandboxes idle past the TTL, updates the gauges.
    void purge_now();

  private:
    struct entry;
    class view;
    using view_ptr = std::shared_ptr<const sandbox_view>;

    [[nodiscard]] std::optional<view_ptr> cached(const std::string& id, bool for_write);
    [[nodiscard]] or_response<view_ptr> load(const std::string& id, bool for_write, error_style errors);
    [[nodiscard]] std::shared_ptr<const view> make_view(
        const std::string& id, std::shared_ptr<store_set> stores
    ) const;
    [[nodiscard]] storage::storage_config own_config(const std::string& id) const;
    void remove(const std::string& id);
    void evict_beyond_capacity();

    const sandbox_config config_;
    const world_commons& commons_;
    const core::token_settings& tokens_;
    const core::pet_token_settings& pet_tokens_;
    const sandbox_tables tables_;
    std::unique_ptr<storage::sandbox_store> registry_;
    std::shared_ptr<store_set> pristine_;  // the seed, read by every sandbox that never wrote
    row_counts seed_rows_;                 // what the seed holds of each kind the row quota counts
    const std::size_t open_capacity_;      // sandboxes with data kept open (durable backends)

    std::mutex build_mutex_;  // one load, reset or purge at a time (held on the storage pool only)
    std::mutex map_mutex_;    // guards entries_ (held briefly, on I/O threads too)
    std::map<std::string, entry, std::less<>> entries_;

    std::unique_ptr<periodic_task> purge_;  // last: stopped first, before the members a purge uses
};

}  // namespace storefront::server
