#pragma once
// The composition root: builds the stores, caches, workers and tokens once at start-up, hands each surface
// the small services struct its handlers use, mounts the route tables and gives the listener what it needs.
// Only main and tests that need a whole application include this; nothing in server/ below it does.

#include <cstdint>
#include <memory>
#include <string>

#include "core/auth_tokens.hpp"
#include "core/pet_auth.hpp"
#include "server/api/graphql/graph_engine.hpp"
#include "server/api/petstore/pet_services.hpp"
#include "server/api/store/location_json.hpp"
#include "server/api/store/store_services.hpp"
#include "server/caches/data_revision.hpp"
#include "server/caches/response_cache.hpp"
#include "server/ops/ops_services.hpp"
#include "server/ops/periodic_task.hpp"
#include "server/ops/readiness.hpp"
#include "server/ops/server_config.hpp"
#include "server/ops/serving_state.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/rate_limit.hpp"
#include "server/routing/router.hpp"
#include "server/sandboxes/sandbox_worlds.hpp"
#include "server/sandboxes/store_world.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/password_worker.hpp"
#include "server/services/pet_credentials.hpp"
#include "server/services/placeholder_images.hpp"
#include "server/services/rate_limiter.hpp"
#include "server/services/write_lane.hpp"
#include "server/transport/http_server.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/location_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/session_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

class composition_root {
  public:
    explicit composition_root(const server_config& config);
    ~composition_root();
    composition_root(const composition_root&) = delete;
    composition_root& operator=(const composition_root&) = delete;

    // What a listener (http_server) serves with; every listener of the process shares it.
    [[nodiscard]] listener_services listener();
    // What dispatch works with (in-process tests, the fuzz harnesses and the benchmarks call dispatch()).
    [[nodiscard]] const routing_services& routing() const { return routing_; }
    [[nodiscard]] const router& routes() const { return routes_; }

    // Started / draining, as main sets it; read by /readyz and the sessions.
    serving_state& state() { return state_; }
    password_worker& passwords() { return passwords_; }
    // Finishes the queued writes that share commits (SQLite); call once the I/O threads have stopped.
    void stop_writes() {
        if (storage_writes_) {
            storage_writes_->stop();
        }
    }
    [[nodiscard]] const blocking_offload& storage_calls() const { return storage_calls_; }
    storage::location_store& locations() { return *locations_; }
    // The sandboxes (nullptr with --sandboxes off), for tests that run a purge pass.
    sandbox_worlds* sandboxes() { return sandboxes_.get(); }
    // The change feed's hubs: main closes their streams when the drain begins.
    event_hubs& events() { return events_; }

  private:
    // Called by a listener once bound, before any request is served: a default public URL of a server
    // started with port 0 gets the port the kernel chose.
    void listening_on(std::uint16_t port);

    core::write_policy write_policy_;
    std::string address_;
    std::string public_url_;
    bool public_url_needs_port_;
    std::unique_ptr<storage::location_store> locations_;
    location_json location_objects_;  // after locations_, which it is built from
    placeholder_images images_;
    core::token_settings token_settings_;
    core::pet_token_settings pet_token_settings_;
    password_worker passwords_;
    login_brake login_brake_;
    blocking_offload storage_calls_;
    std::unique_ptr<write_lane> storage_writes_;  // SQLite and PostgreSQL
    pet_credentials pet_keys_;
    graph_engine graph_engine_;
    event_hubs events_;       // the change feed of each data set (before commons_, which points at it)
    request_logs inspector_;  // the request inspector's records of each sandbox (likewise)
    world_commons commons_;
    // --sandboxes on|required: the sandboxes' views (none when off).
    std::unique_ptr<sandbox_worlds> sandboxes_;
    // The shared view: its stores and cached lists, its tokens and its surfaces' services.
    std::shared_ptr<store_set> shared_stores_;
    store_world shared_;
    shared_data_revision shared_revision_;
    serving_state state_;
    storage_readiness readiness_;
    ops_services ops_services_;
    router routes_;
    routing_services routing_;
    // --rate-limit: the client buckets and the gate every listener's sessions pass (none when off).
    std::unique_ptr<rate_limiter> rate_limiter_;
    std::unique_ptr<rate_limit_gate> rate_limit_;
    // Order expiry and the purge of old Idempotency-Keys (last: stopped before the stores go).
    std::unique_ptr<periodic_task> order_expiry_;
    // PostgreSQL: the purge of shared inspector records of idle sandboxes (stopped before inspector_ goes).
    std::unique_ptr<periodic_task> inspector_purge_;
};

}  // namespace storefront::server
