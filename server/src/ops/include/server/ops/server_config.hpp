#pragma once
// Everything the executable is configured with, parsed once from flags and STOREFRONT_* variables.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/auth_tokens.hpp"
#include "core/compat.hpp"
#include "core/pet_auth.hpp"
#include "core/sandbox.hpp"
#include "core/token_bucket.hpp"
#include "core/write_policy.hpp"
#include "server/ops/client_address.hpp"
#include "server/services/cors_origins.hpp"
#include "server/services/login_brake.hpp"
#include "storage/storage_config.hpp"

namespace storefront::server {

// Request limits and timeouts, with defaults modelled on nginx.
struct limits_config {
    std::size_t header_limit = 8 * 1024;            // bytes of request line + headers (431 beyond)
    std::size_t max_header_fields = 100;            // header fields per request (431 beyond)
    std::size_t body_limit = 1024 * 1024;           // bytes of any request body (413 beyond)
    std::size_t form_body_limit = 64 * 1024;        // bytes of JSON and form bodies (413 beyond)
    std::size_t upload_limit = 5 * 1024 * 1024;     // bytes of one uploaded file (413 beyond)
    std::size_t upload_budget = 256 * 1024 * 1024;  // bytes of all uploaded files kept (507 beyond)
    std::chrono::seconds header_timeout{10};        // to receive a whole header once its first byte came
    std::chrono::seconds body_timeout{10};          // to receive a body, plus the time min_body_rate allows
    std::size_t min_body_rate = 8 * 1024;           // bytes/second a body upload must at least average
    std::chrono::seconds keepalive_timeout{60};     // idle time between requests on one connection
    std::chrono::seconds write_timeout{30};         // per write of one response
    std::size_t max_requests_per_connection = 1000;
    std::size_t max_connections = 10000;        // open connections per process; beyond, accepting pauses
    std::chrono::seconds shutdown_timeout{10};  // in-flight requests get this long after SIGTERM
    std::size_t hash_threads = 2;               // Argon2id workers (each ~19 MiB while hashing)
    std::size_t hash_queue = 64;                // waiting Argon2id jobs beyond this get 503
    std::size_t storage_threads = 4;            // threads running blocking storage calls (SQLite, libpq)
    std::size_t storage_queue = 256;            // storage calls waiting or running beyond this get 503
};

// The pet store surface (/api/v3): its API keys, OAuth clients, bearer tokens and optional own listener.
// The defaults are the documented development credentials (behaviour.md); main logs a warning while
// they are in use.
struct pet_config {
    std::vector<std::string> api_keys{"special-key"};
    std::vector<core::pet_client> clients{
        {"petstore-client", "petstore-secret", {"read:pets", "write:pets"}}};
    core::pet_token_settings tokens;              // secret: random per process when not configured
    std::uint16_t port = 0;                       // 0: no second listener (served on `port` with /api/v1)
    std::size_t image_budget = 64 * 1024 * 1024;  // bytes of uploaded images kept in memory
    bool development_credentials = true;          // api_keys/clients are the documented defaults
    bool secret_generated = false;                // tokens.secret was generated at start
};

// Sandboxes (issue 20): private writable copies of the store per client.
struct sandbox_config {
    core::sandbox_mode mode = core::sandbox_mode::on;       // --sandboxes off|on|required
    std::size_t max_live = 10'000;                          // --sandbox-max: sandboxes holding data
    std::size_t max_rows = 1'000;                           // --sandbox-rows: rows one may add per kind
    std::chrono::seconds ttl = std::chrono::hours(24 * 7);  // --sandbox-ttl: idle lifetime
};

// The GraphQL endpoint's bounds on one document (issue 25).
struct graphql_config {
    std::size_t max_depth = 20;       // --graphql-max-depth: selection nesting (GraphiQL's introspection: 13)
    std::size_t max_fields = 10'000;  // --graphql-max-fields: fields resolved for one request
};

// The change feed (issue 43): events kept per data set to resume from, open streams per process, and the
// events one subscriber may have waiting before it is closed as too slow.
struct events_config {
    std::size_t history = 10'000;          // --events-history
    std::size_t max_connections = 10'000;  // --events-max-connections (503 beyond)
    std::size_t queue = 1'024;             // --events-queue
};

struct server_config {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;       // 0 = any free port (logged at start)
    std::size_t threads = 1;         // I/O threads, one io_context and acceptor each
    bool access_log = true;          // one JSON line per request on stdout
    bool access_log_probes = false;  // also a line per /healthz and /readyz request
    trusted_proxies proxies;         // peers whose X-Forwarded-For / Forwarded names the client in the log
    // --cors-origins: origins allowed to call with credentials (cookies); none: `*` without credentials.
    cors_origins cors;
    // --rate-limit / --rate-burst: a token bucket per client (the peer, or a trusted proxy's client); none:
    // off.
    std::optional<core::rate_limit> rate_limit;
    std::chrono::seconds drain{5};  // after SIGTERM: /readyz 503 and keep serving this long, then stop
    std::optional<unsigned>
        instance;  // --instance N: already added to port (and pet.port); in every log line
    core::write_policy write_policy = core::write_policy::open;
    // --admins: under roles, the registered (non-seed) admins kept at start, by normalised e-mail; every
    // other non-seed admin is demoted to customer (self-made under open before issue 45).
    std::vector<std::string> kept_admins;
    login_brake_settings login_brake;  // failed-login budgets per account and per client (issue 45)
    core::compat_mode compat = core::compat_mode::none;
    // --order-ttl: an unpaid order expires (its stock released) this long after checkout (issue 42).
    std::chrono::seconds order_ttl{30 * 60};  // --compat: /api/v1's public-service quirks
    std::string public_url;                   // base of image and file URLs; empty: http://<address>:<port>
    bool secrets_generated = false;
    bool reset_data = false;  // --reset-data: restore the seed data in the storage, then exit
    // --fault-injection: /api requests may ask for _delay, _status and _fail_rate (routing/fault_injection)
    bool fault_injection = false;
    sandbox_config sandboxes;
    graphql_config graphql;
    events_config events;
    core::token_settings tokens;
    storage::storage_config storage;
    limits_config limits;
    pet_config pet;
};

}  // namespace storefront::server
