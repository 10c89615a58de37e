// Builds the stores, token services, password worker and response caches at start-up, and hands each
// surface its services struct and the router its mounted tables.

#include "server/composition_root.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>

#include <openssl/rand.h>

#include "server/api/docs/routes.hpp"
#include "server/api/graphql/routes.hpp"
#include "server/api/petstore/routes.hpp"
#include "server/api/store/order_expiry.hpp"
#include "server/api/store/routes.hpp"
#include "server/ops/health_routes.hpp"
#include "server/ops/metrics.hpp"
#include "server/ops/periodic_task.hpp"
#include "server/ops/routes.hpp"
#include "server/services/self_made_admins.hpp"
#include "storage/event_log.hpp"
#include "storage/factory.hpp"

namespace storefront::server {

namespace {

// The lane of durable writes: SQLite writes through one connection, so one writer thread; PostgreSQL takes
// one writer thread per two pooled connections (batches in parallel, while the other half of the pool
// serves reads and what a write reads besides its batch's connection). The memory backend writes inline.
std::unique_ptr<write_lane> make_write_lane(const server_config& config) {
    const auto kind = storage::kind_of(config.storage.backend);
    if (kind == storage::backend_kind::sqlite) {
        return std::make_unique<write_lane>(config.limits.storage_queue);
    }
    if (kind == storage::backend_kind::postgresql) {
        return std::make_unique<write_lane>(config.limits.storage_queue, config.storage.pool_size / 2);
    }
    return nullptr;
}

// The configured pet token settings; an empty secret (a config not built by parse_config) gets a random
// per-process one, as the flags do when --pet-token-secret is unset.
core::pet_token_settings pet_token_settings_of(const server_config& config) {
    core::pet_token_settings settings = config.pet.tokens;
    if (settings.secret.empty()) {
        std::array<unsigned char, 32> bytes{};
        if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
            throw std::runtime_error("cannot generate a random pet token secret");
        }
        settings.secret.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    return settings;
}

// --public-url, or the listen address when none is given (a wildcard address is reached on loopback).
std::string public_url_of(const server_config& config, std::uint16_t port) {
    std::string url = config.public_url;
    if (url.empty()) {
        const bool wildcard = config.address == "0.0.0.0" || config.address == "::";
        const std::string host = wildcard ? "127.0.0.1" : config.address;
        const bool ipv6 = host.find(':') != std::string::npos;
        url = "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
    }
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

// Often enough that what lives `ttl` (an unpaid order, an idle sandbox's records) goes within about a tenth
// of it after, and at least once a minute.
std::chrono::milliseconds expiry_interval(std::chrono::seconds ttl) {
    return std::clamp<std::chrono::milliseconds>(
        std::chrono::duration_cast<std::chrono::milliseconds>(ttl) / 10,
        std::chrono::milliseconds(200),
        std::chrono::minutes(1)
    );
}

// One pass of the shop's housekeeping on the shared view: unpaid orders past --order-ttl expire (their
// stock released, `events` told), Idempotency-Keys older than 24 h go, and the orders-by-status gauges are
// set.
void expire_orders(store_set& stores, event_hub* events) {
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch()
    )
                         .count();
    (void)expire_due_orders(*stores.shop, events, now);
    (void)stores.shop->purge_keys(now);
    if (const auto orders = stores.shop->list_orders({})) {
        std::array<std::size_t, service_metrics::order_states> by_status{};
        for (const auto& o : *orders) {
            ++by_status[static_cast<std::size_t>(o.status)];
        }
        metrics().shop_orders(by_status);
    }
}

// Prepared GraphQL documents kept by query text (a client sends a handful of distinct ones).
constexpr std::size_t graph_documents_cached = 1000;
// The request inspector keeps the records of at most this many sandboxes (1,000 records each).
constexpr std::size_t inspector_max_logs = 200;

}  // namespace

composition_root::settings::settings(const server_config& config)
    : write_policy(config.write_policy),
      address(config.address),
      public_url(public_url_of(config, config.port)),
      public_url_needs_port(config.public_url.empty() && config.port == 0),
      tokens(config.tokens),
      pet_tokens(pet_token_settings_of(config)) {}

composition_root::workers::workers(const server_config& config)
    : passwords(config.limits.hash_threads, config.limits.hash_queue),
      brake(config.login_brake),
      storage_calls(
          storage::kind_of(config.storage.backend) == storage::backend_kind::memory
              ? 0
              : config.limits.storage_threads,
          config.limits.storage_queue
      ),
      writes(make_write_lane(config)) {}

composition_root::shared_parts::shared_parts(const server_config& config, const settings& set, workers& work)
    : locations(storage::make_location_store(config.storage)),
      location_objects(locations->all()),
      pet_keys(config.pet.api_keys, config.pet.clients),
      graph(
          graphql::limits{.max_depth = config.graphql.max_depth, .max_fields = config.graphql.max_fields},
          graph_documents_cached
      ),
      events(
          event_hub_limits{.history = config.events.history, .queue = config.events.queue},
          storage::make_event_log(config.storage)
      ),
      // A record holds up to 8 KiB of bodies plus its headers: the logs of at most this many sandboxes
      // (the one written longest ago goes first) keep the inspector's memory bounded.
      inspector(inspector_max_logs),
      commons{
          .locations = *locations,
          .location_objects = location_objects,
          .images = images,
          .passwords = work.passwords,
          .brake = work.brake,
          .storage = work.storage_calls,
          .writes = work.writes.get(),
          .pet_keys = pet_keys,
          .graphql = graph,
          .public_url = set.public_url,
          .write_policy = set.write_policy,
          .compat = config.compat,
          .upload_limit = config.limits.upload_limit,
          .upload_budget = config.limits.upload_budget,
          .image_budget = config.pet.image_budget,
          .order_ttl_ms = std::chrono::duration_cast<std::chrono::milliseconds>(config.order_ttl).count(),
          .events = &events,
          .max_event_streams = config.events.max_connections,
          .inspector = &inspector,
      } {
    // Several instances on one PostgreSQL: the inspector's records live in the database, so behind the
    // balancer a client sees what every instance handled for its sandbox.
    if (config.sandboxes.mode != core::sandbox_mode::off) {
        if (auto shared_log = storage::make_event_log(config.storage)) {
            inspector.share_through(std::move(shared_log));
        }
    }
}

composition_root::data_sets::data_sets(
    const server_config& config, const settings& set, const shared_parts& parts
)
    : sandboxes(
          config.sandboxes.mode == core::sandbox_mode::off ? nullptr
                                                           : std::make_unique<sandbox_worlds>(sandbox_setup{
                                                                 .config = config.sandboxes,
                                                                 .shared = config.storage,
                                                                 .commons = parts.commons,
                                                                 .tokens = set.tokens,
                                                                 .pet_tokens = set.pet_tokens,
                                                                 .tables =
                                                                     sandbox_tables{
                                                                         .store = &store_routes(),
                                                                         .pets = &petstore_routes(),
                                                                         .docs = &docs_routes(),
                                                                         .graphql = &graphql_routes()}})
      ),
      shared_stores(std::make_shared<store_set>(config.storage, parts.commons)),
      shared(shared_stores, parts.commons, set.tokens, set.pet_tokens, "", sandboxes.get()),
      shared_revision(*shared_stores->catalogue, *shared_stores->users) {
    if (config.write_policy == core::write_policy::roles) {
        (void)demote_self_made_admins(*shared_stores->users, *shared_stores->sessions, config.kept_admins);
    }
}

composition_root::serving::serving(
    const server_config& config, workers& work, shared_parts& parts, data_sets& data
)
    :  // A check result serves every probe for half a second; a probe waits at most 1.5 s for a running one.
      readiness(std::chrono::milliseconds(500), std::chrono::milliseconds(1500)),
      ops{
          .state = state,
          .readiness = readiness,
          .catalogue = *data.shared_stores->catalogue,
          .storage = work.storage_calls,
          .passwords = work.passwords,
          .writes = work.writes.get(),
      },
      routes({
          store_routes().mount(data.shared.store(), config.compat),
          petstore_routes().mount(data.shared.pets()),
          graphql_routes().mount(data.shared.graphql()),
          &docs_routes(),
          ops_routes().mount(ops),
          health_routes().mount(ops),
      }),
      routing{
          .routes = routes,
          .limits =
              {.form_body_limit = config.limits.form_body_limit,
               .body_limit = config.limits.body_limit,
               .upload_limit = config.limits.upload_limit},
          .access = data.shared.access(),
          .log_probes = config.access_log_probes,
          .fault_injection = config.fault_injection,
          .sandboxes = data.sandboxes.get(),
          .shared_data = &data.shared_revision,
          .cors = config.cors,
          .inspector = data.sandboxes ? &parts.inspector : nullptr,
          .inspector_streams = config.events.max_connections,
      } {
    metrics().describe_routes(routes);
    if (config.rate_limit) {
        limiter = std::make_unique<rate_limiter>(*config.rate_limit);
        limit = std::make_unique<rate_limit_gate>(*limiter);
    }
}

composition_root::housekeeping::housekeeping(
    const server_config& config, shared_parts& parts, data_sets& data
) {
    // Warm the caches so the first requests do not pay for serialisation.
    data.shared_stores->warm();
    expire_orders(
        *data.shared_stores, data.shared.events()
    );  // at once: the gauges are right from the first scrape
    // The hub outlives the task (shared_parts are built before and stopped after housekeeping).
    order_expiry = std::make_unique<periodic_task>(
        "order_expiry",
        expiry_interval(config.order_ttl),
        [stores = data.shared_stores, events = data.shared.events()] { expire_orders(*stores, events); }
    );
    // Shared inspector records of a sandbox idle for --sandbox-ttl go: a sandbox that only reads is never
    // removed, so nothing else would delete them (any id may be named, so they would grow without bound).
    if (parts.inspector.shared()) {
        inspector_purge = std::make_unique<periodic_task>(
            "inspector_purge",
            expiry_interval(config.sandboxes.ttl),
            [&inspector = parts.inspector, ttl = config.sandboxes.ttl] {
                const auto cutoff = std::chrono::system_clock::now() - ttl;
                inspector.forget_idle_shared(
                    std::chrono::duration_cast<std::chrono::milliseconds>(cutoff.time_since_epoch()).count()
                );
            }
        );
    }
}

composition_root::composition_root(const server_config& config)
    : settings_(config),
      workers_(config),
      parts_(config, settings_, workers_),
      data_(config, settings_, parts_),
      serving_(config, workers_, parts_, data_),
      housekeeping_(config, parts_, data_) {}

composition_root::~composition_root() {
    stop_writes();  // the lane's queued writes use the stores, which go before it
    // Calls still on the storage pool (an inspector record being stored after its answer) use members
    // of later groups, which go before it.
    workers_.storage_calls.stop();
}

listener_services composition_root::listener() {
    return {
        serving_.routing,
        serving_.state,
        [this](std::uint16_t port) { listening_on(port); },
        serving_.limit.get()};
}

void composition_root::listening_on(std::uint16_t port) {
    if (!settings_.public_url_needs_port) {
        return;
    }
    server_config listening;
    listening.address = settings_.address;
    settings_.public_url = public_url_of(listening, port);
    settings_.public_url_needs_port = false;
    data_.shared_stores->forget_cached_lists();
    if (data_.sandboxes) {
        data_.sandboxes->forget_cached_lists();
    }
}

}  // namespace storefront::server
