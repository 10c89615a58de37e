#pragma once
// One view of the data: the shared view, or one sandbox (issue 20). A store_set is the stores of a view
// and their cached lists; a store_world adds the view's token secrets and the services each surface's
// handlers and the access rules get there. Sandboxes that never wrote share one pristine store_set (the
// seed, in memory) under worlds of their own (each with its own tokens).

#include <memory>
#include <string>

#include "core/auth_tokens.hpp"
#include "core/compat.hpp"
#include "core/order_states.hpp"
#include "core/pet_auth.hpp"
#include "core/write_policy.hpp"
#include "server/api/graphql/graphql_services.hpp"
#include "server/api/petstore/pet_services.hpp"
#include "server/api/store/location_json.hpp"
#include "server/api/store/store_services.hpp"
#include "server/caches/list_answers.hpp"
#include "server/caches/response_cache.hpp"
#include "server/routing/access.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/event_hub.hpp"
#include "server/services/login_brake.hpp"
#include "server/services/password_worker.hpp"
#include "server/services/pet_credentials.hpp"
#include "server/services/placeholder_images.hpp"
#include "server/services/request_recorder.hpp"
#include "server/services/session_gate.hpp"
#include "server/services/write_lane.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/storage_config.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// What every view shares: read-only locations, placeholder images, the worker pools, the pet API keys,
// and the settings of the surfaces.
struct world_commons {
    storage::location_store& locations;
    const location_json& location_objects;
    placeholder_images& images;
    password_worker& passwords;
    login_brake& brake;  // one per instance: every view's logins
    blocking_offload& storage;
    write_lane* writes;  // SQLite, PostgreSQL: catalogue and user writes share commits here (memory: nullptr)
    const pet_credentials& pet_keys;
    const graph_engine& graphql;
    const std::string& public_url;  // may gain its port once the listener is bound, before serving
    core::write_policy write_policy;
    core::compat_mode compat;
    std::size_t upload_limit;
    std::size_t upload_budget;                                     // bytes of uploads one view keeps
    std::size_t image_budget;                                      // bytes of pet images one view keeps
    core::timestamp_ms order_ttl_ms = core::default_order_ttl_ms;  // --order-ttl
    // The change feed's hub of each data set (nullptr: no feed) and the bound on open streams.
    event_hubs* events = nullptr;
    std::size_t max_event_streams = 10'000;
    // The request inspector's logs (nullptr: none): a sandbox's is dropped with it.
    request_logs* inspector = nullptr;
};

// The stores of one view, made by the storage factory from `config`, and the cached JSON of its lists.
class store_set {
  public:
    // Throws like the factory (storage_unavailable when the database cannot be reached).
    store_set(const storage::storage_config& config, const world_commons& commons);
    store_set(const store_set&) = delete;
    store_set& operator=(const store_set&) = delete;

    std::unique_ptr<storage::catalogue_store> catalogue;
    std::unique_ptr<storage::user_store> users;
    std::unique_ptr<storage::file_store> files;
    std::unique_ptr<storage::session_store> sessions;
    std::unique_ptr<storage::pet_store> pets;
    std::unique_ptr<storage::order_store> orders;
    std::unique_ptr<storage::pet_user_store> pet_users;
    std::unique_ptr<storage::pet_image_store> pet_images;
    // Carts, orders, payments and idempotency keys; on memory its stock lives in `catalogue` (declared
    // before it, so destroyed after it).
    std::unique_ptr<storage::shop_store> shop;
    session_gate logins;  // in front of `sessions`: whether an access token's login is live
    fragment_list product_json;
    fragment_list category_json;
    fragment_list user_json;
    answer_cache graphql_answers;  // answers to GraphQL queries over these stores
    list_answers product_answers;  // filtered, searched or sorted product pages over these stores

    // Serialises the cached lists now, so the first requests do not pay for it.
    void warm();
    // Forgets the cached lists (the public URL in their image links changed).
    void forget_cached_lists();
};

class store_world {
  public:
    // `files_path`: where this view's uploads are served ("" for the shared view, "/sandbox/{id}");
    // `sandboxes`: where POST /sandboxes mints ids (the shared view's; nullptr inside a sandbox).
    store_world(
        std::shared_ptr<store_set> stores,
        const world_commons& commons,
        const core::token_settings& tokens,
        const core::pet_token_settings& pet_tokens,
        std::string files_path,
        sandbox_gateway* sandboxes = nullptr
    );
    store_world(const store_world&) = delete;
    store_world& operator=(const store_world&) = delete;

    [[nodiscard]] store_set& stores() const { return *stores_; }
    // This data set's change feed (nullptr: none), for what background passes change.
    [[nodiscard]] event_hub* events() const { return events_.get(); }
    [[nodiscard]] store_services& store() { return store_; }
    [[nodiscard]] pet_services& pets() { return pets_; }
    [[nodiscard]] graphql_services& graphql() { return graphql_; }
    [[nodiscard]] const access_services& access() const { return access_; }
    [[nodiscard]] const core::auth_tokens& tokens() const { return tokens_; }
    [[nodiscard]] const core::pet_tokens& pet_tokens() const { return pet_tokens_; }

  private:
    std::shared_ptr<store_set> stores_;
    std::string files_path_;
    std::shared_ptr<event_hub> events_;  // this data set's change feed (kept across the view's reopening)
    core::auth_tokens tokens_;
    core::pet_tokens pet_tokens_;
    store_services store_;
    pet_services pets_;
    graphql_services graphql_;
    access_services access_;
};

}  // namespace storefront::server
