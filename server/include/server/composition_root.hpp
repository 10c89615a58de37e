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

// The parts are built in six groups, each from the configuration and the groups before it (its constructor
// names what it uses), and stopped in the reverse order: a member of a later group may point into an earlier
// one, never the other way.
class composition_root {
  public:
    explicit composition_root(const server_config& config);
    ~composition_root();
    composition_root(const composition_root&) = delete;
    composition_root& operator=(const composition_root&) = delete;

    // What a listener (http_server) serves with; every listener of the process shares it.
    [[nodiscard]] listener_services listener();
    // What dispatch works with (in-process tests, the fuzz harnesses and the benchmarks call dispatch()).
    [[nodiscard]] const routing_services& routing() const { return serving_.routing; }
    [[nodiscard]] const router& routes() const { return serving_.routes; }

    // Started / draining, as main sets it; read by /readyz and the sessions.
    serving_state& state() { return serving_.state; }
    password_worker& passwords() { return workers_.passwords; }
    // Finishes the queued writes that share commits (SQLite); call once the I/O threads have stopped.
    void stop_writes() {
        if (workers_.writes) {
            workers_.writes->stop();
        }
    }
    [[nodiscard]] const blocking_offload& storage_calls() const { return workers_.storage_calls; }
    storage::location_store& locations() { return *parts_.locations; }
    // The sandboxes (nullptr with --sandboxes off), for tests that run a purge pass.
    sandbox_worlds* sandboxes() { return data_.sandboxes.get(); }
    // The change feed's hubs: main closes their streams when the drain begins.
    event_hubs& events() { return parts_.events; }

  private:
    // 1. What the configuration decides once: the public URL and the token settings.
    struct settings {
        explicit settings(const server_config& config);
        core::write_policy write_policy;
        std::string address;
        std::string public_url;  // gains the bound port in listening_on() when it was not configured
        bool public_url_needs_port;
        core::token_settings tokens;
        core::pet_token_settings pet_tokens;
    };
    // 2. The worker pools and the lane of durable writes that every data set shares.
    struct workers {
        explicit workers(const server_config& config);
        password_worker passwords;
        login_brake brake;
        blocking_offload storage_calls;
        std::unique_ptr<write_lane> writes;  // SQLite and PostgreSQL
    };
    // 3. What every data set's stores and surfaces are built with: `commons` points at the members above it,
    //    at the settings and at the workers.
    struct shared_parts {
        shared_parts(const server_config& config, const settings& set, workers& work);
        std::unique_ptr<storage::location_store> locations;
        location_json location_objects;
        placeholder_images images;
        pet_credentials pet_keys;
        graph_engine graph;
        event_hubs events;       // the change feed of each data set
        request_logs inspector;  // the request inspector's records of each sandbox
        world_commons commons;
    };
    // 4. The data sets: the sandboxes' (none with --sandboxes off) and the shared view with its revision.
    struct data_sets {
        data_sets(const server_config& config, const settings& set, const shared_parts& parts);
        std::unique_ptr<sandbox_worlds> sandboxes;
        std::shared_ptr<store_set> shared_stores;
        store_world shared;
        shared_data_revision shared_revision;
    };
    // 5. What the listeners serve with: the state, the readiness probe, the mounted routes, dispatch's
    //    services and the rate limit (--rate-limit; none when off).
    struct serving {
        serving(const server_config& config, workers& work, shared_parts& parts, data_sets& data);
        serving_state state;
        storage_readiness readiness;
        ops_services ops;
        router routes;
        routing_services routing;
        std::unique_ptr<rate_limiter> limiter;
        std::unique_ptr<rate_limit_gate> limit;
    };
    // 6. Housekeeping on timers: order expiry with the purge of old Idempotency-Keys, and (PostgreSQL) the
    //    purge of shared inspector records of idle sandboxes. Last, so stopped before what they use goes.
    struct housekeeping {
        housekeeping(const server_config& config, shared_parts& parts, data_sets& data);
        std::unique_ptr<periodic_task> order_expiry;
        std::unique_ptr<periodic_task> inspector_purge;
    };

    // Called by a listener once bound, before any request is served: a default public URL of a server
    // started with port 0 gets the port the kernel chose.
    void listening_on(std::uint16_t port);

    settings settings_;
    workers workers_;
    shared_parts parts_;
    data_sets data_;
    serving serving_;
    housekeeping housekeeping_;
};

}  // namespace storefront::server
