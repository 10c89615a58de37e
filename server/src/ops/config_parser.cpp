// Flags and STOREFRONT_* environment variables via Boost.Program_options; flags take precedence.

#include "server/ops/config_parser.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <boost/program_options.hpp>

#include <openssl/rand.h>

#include "core/email.hpp"
#include "core/token_bucket.hpp"
#include "server/version.hpp"

namespace storefront::server {

namespace po = boost::program_options;

namespace {

// 32 random bytes as hex: a per-process secret when none is configured.
std::string random_secret() {
    std::array<unsigned char, 32> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("cannot generate a random token secret");
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char b : bytes) {
        hex += digits[b >> 4];
        hex += digits[b & 15];
    }
    return hex;
}

po::options_description describe_options() {
    po::options_description d(
        "storefront options (each also settable as STOREFRONT_<NAME>, e.g. STOREFRONT_PORT)"
    );
    // clang-format off
    d.add_options()
        ("help", "print this help and exit")
        ("version", "print the version and exit")
        ("address", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on")
        ("port", po::value<unsigned>()->default_value(8080), "TCP port; 0 picks a free port and logs it")
        ("threads", po::value<unsigned>()->default_value(0), "I/O threads; 0 = number of cores")
        ("access-secret", po::value<std::string>(), "HMAC secret of access tokens (random if unset)")
        ("refresh-secret", po::value<std::string>(), "HMAC secret of refresh tokens (random if unset)")
        ("access-ttl", po::value<long long>()->default_value(20LL * 24 * 3600), "access token lifetime, seconds")
        ("refresh-ttl", po::value<long long>()->default_value(10LL * 3600), "refresh token lifetime, seconds")
        ("session-ttl", po::value<long long>()->default_value(30LL * 24 * 3600),
            "absolute lifetime of a login, seconds: its refresh and access tokens end then, however often "
            "refreshed")
        ("order-ttl", po::value<long long>()->default_value(30LL * 60),
            "how long an unpaid order keeps its stock, seconds; then it expires and the stock is released")
        ("storage", po::value<std::string>()->default_value("sqlite:storefront.db"),
            "where data lives: sqlite:PATH (durable, one instance), postgresql://… (a libpq connection string "
            "shared by several instances) or memory (lost at exit; tests)")
        ("storage-pool", po::value<std::size_t>()->default_value(4), "database connections (PostgreSQL) / readers (SQLite)")
        ("storage-threads", po::value<std::size_t>()->default_value(4), "threads running blocking storage calls")
        ("storage-queue", po::value<std::size_t>()->default_value(256), "storage calls waiting beyond which 503 is answered")
        ("reset-data", "restore the seed data in --storage (every write is lost), then exit")
        ("location-file", po::value<std::string>(), "CSV file id,name,description,latitude,longitude to serve")
        ("generated-locations", po::value<std::size_t>()->default_value(100000),
            "size of the generated default location set (without --location-file)")
        ("header-limit", po::value<std::size_t>()->default_value(8 * 1024), "max request header bytes (431)")
        ("max-header-fields", po::value<std::size_t>()->default_value(100), "max header fields per request (431)")
        ("body-limit", po::value<std::size_t>()->default_value(1024 * 1024), "max request body bytes (413)")
        ("form-body-limit", po::value<std::size_t>()->default_value(64 * 1024), "max JSON/form body bytes (413)")
        ("upload-limit", po::value<std::size_t>()->default_value(5 * 1024 * 1024), "max bytes of an uploaded file (413)")
        ("header-timeout", po::value<long long>()->default_value(10), "seconds to receive a request header")
        ("body-timeout", po::value<long long>()->default_value(10), "seconds to receive a body, plus size/min-body-rate")
        ("min-body-rate", po::value<std::size_t>()->default_value(8 * 1024), "bytes/s a body upload must average")
        ("keepalive-timeout", po::value<long long>()->default_value(60), "seconds a connection may idle between requests")
        ("write-timeout", po::value<long long>()->default_value(30), "seconds to write one response")
        ("max-requests-per-connection", po::value<std::size_t>()->default_value(1000), "then the connection closes")
        ("max-connections", po::value<std::size_t>()->default_value(10000), "open connections; beyond, accepting pauses")
        ("shutdown-timeout", po::value<long long>()->default_value(10), "seconds in-flight requests get after the drain")
        ("hash-threads", po::value<std::size_t>()->default_value(2), "threads verifying Argon2id passwords")
        ("hash-queue", po::value<std::size_t>()->default_value(64), "queued logins beyond which 503 is answered")
        ("pet-api-keys", po::value<std::string>()->default_value("special-key"),
            "comma-separated API keys accepted in the api_key header on /api/v3")
        ("pet-clients", po::value<std::string>()->default_value("petstore-client:petstore-secret:read:pets write:pets"),
            "OAuth clients of /api/v3/oauth/token: id:secret:scopes, comma-separated; scopes space-separated")
        ("pet-token-secret", po::value<std::string>(), "HMAC secret of /api/v3 bearer tokens (random if unset)")
        ("pet-token-ttl", po::value<long long>()->default_value(3600), "/api/v3 bearer token lifetime, seconds")
        ("pet-port", po::value<unsigned>()->default_value(0), "also serve on this port (0 = no second listener)")
        ("pet-image-budget", po::value<std::size_t>()->default_value(64 * 1024 * 1024),
            "bytes of uploaded pet images kept in memory")
        ("write-policy", po::value<std::string>()->default_value("open"),
            "who may write to /api/v1: open (anyone; seed rows read-only) or roles (admins write the catalogue)")
        ("admins", po::value<std::string>()->default_value(""),
            "under --write-policy roles: comma-separated e-mails of the registered admins to keep; any other "
            "non-seed admin is demoted to customer at start (admins self-made under open)")
        ("compat", po::value<std::string>()->default_value("none"),
            "none, or public: /api/v1 reproduces the public service's quirks that existing suites assert "
            "(400 EntityNotFoundError, 201 is-available, a password mask, 404 for a wrong method, whole lists)")
        ("public-url", po::value<std::string>(), "base URL clients reach this service at, for image and file links "
            "(default http://<address>:<port>)")
        ("upload-budget", po::value<std::size_t>()->default_value(256 * 1024 * 1024), "bytes of uploads kept (507 beyond)")
        ("access-log", po::value<bool>()->default_value(true), "log one JSON line per request (true/false)")
        ("access-log-probes", po::value<bool>()->default_value(false), "also log /healthz and /readyz requests")
        ("trusted-proxies", po::value<std::string>()->default_value(""),
            "comma-separated addresses or CIDR networks of proxies whose X-Forwarded-For / Forwarded header "
            "names the client in the access log (default none: the TCP peer is logged)")
        ("cors-origins", po::value<std::string>()->default_value(""),
            "comma-separated origins browser apps may call with credentials (login cookies): exact "
            "(https://shop.example) or with any port (http://localhost:*); each gets its origin and "
            "Access-Control-Allow-Credentials echoed (default none: Access-Control-Allow-Origin: *, no cookies "
            "across origins)")
        ("rate-limit", po::value<std::string>(),
            "requests per second per client, as N/s (e.g. 20/s; default off): a token bucket per client "
            "address (or per client a --trusted-proxies proxy names); over it, 429 with Retry-After")
        ("rate-burst", po::value<std::string>(),
            "requests a client may send at once before --rate-limit applies (the bucket's size; default: N)")
        ("sandboxes", po::value<std::string>()->default_value("on"),
            "private sandboxes per client under /sandbox/{id} or X-Sandbox: off, on, or required (the shared "
            "data is read-only: the setting for a public instance)")
        ("sandbox-max", po::value<std::size_t>()->default_value(10000), "sandboxes holding data at once (507 beyond)")
        ("sandbox-rows", po::value<std::size_t>()->default_value(1000), "rows a sandbox may add per kind (507 beyond)")
        ("events-history", po::value<std::size_t>()->default_value(10000),
            "change feed events kept per data set for clients resuming with Last-Event-ID")
        ("events-max-connections", po::value<std::size_t>()->default_value(10000),
            "open change feed streams (SSE and WebSocket) per process (503 beyond)")
        ("events-queue", po::value<std::size_t>()->default_value(1024),
            "events one stream may have waiting to be sent; a slower client is closed (overflow)")
        ("graphql-max-depth", po::value<std::size_t>()->default_value(20),
            "deepest selection nesting a GraphQL document may have (fragments expanded)")
        ("graphql-max-fields", po::value<std::size_t>()->default_value(10000),
            "most fields one GraphQL request may resolve (list items counted)")
        ("sandbox-ttl", po::value<std::string>()->default_value("7d"),
            "how long an unused sandbox keeps its data: N with s, m, h or d (e.g. 7d, 90m)")
        ("drain-seconds", po::value<long long>()->default_value(5),
            "after SIGTERM/SIGINT: /readyz answers 503 and requests are still served this long (0 = none); "
            "a second signal ends the drain early")
        ("fault-injection", po::value<bool>()->default_value(false)->implicit_value(true),
            "let /api requests ask for _delay=MS, _status=CODE and _fail_rate=R (error states on demand; "
            "for development and tests, never in production)")
        ("instance", po::value<unsigned>(),
            "instance number N (systemd storefront@N): listen on --port + N (and --pet-port + N), log it");
    // clang-format on
    return d;
}

// STOREFRONT_ACCESS_SECRET -> access-secret; other variables are not ours (nor STOREFRONT_HELP and
// STOREFRONT_VERSION: actions, and the latter a common name for a build's version).
std::string env_to_option(const std::string& variable, const po::options_description& d) {
    constexpr std::string_view prefix = "STOREFRONT_";
    if (variable.rfind(prefix, 0) != 0) {
        return {};
    }
    std::string name = variable.substr(prefix.size());
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return c == '_' ? '-' : static_cast<char>(std::tolower(c));
    });
    if (name == "help" || name == "version" || d.find_nothrow(name, false) == nullptr) {
        return {};
    }
    return name;
}

std::chrono::seconds positive_seconds(const po::variables_map& vm, const char* name) {
    const long long value = vm[name].as<long long>();
    if (value <= 0) {
        throw po::error(std::string("--") + name + " must be a positive number of seconds");
    }
    return std::chrono::seconds(value);
}

// The comma-separated items of `text`, trimmed, empty ones dropped.
std::vector<std::string> comma_list(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        while (!item.empty() && item.front() == ' ') {
            item.remove_prefix(1);
        }
        while (!item.empty() && item.back() == ' ') {
            item.remove_suffix(1);
        }
        if (!item.empty()) {
            out.emplace_back(item);
        }
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    return out;
}

// The pet surface's flags: credentials, token secret and lifetime, second listener, image budget.
void parse_pet_options(const po::variables_map& vm, server_config& c) {
    c.pet.api_keys = comma_list(vm["pet-api-keys"].as<std::string>());
    auto clients = core::parse_pet_clients(vm["pet-clients"].as<std::string>());
    if (!clients) {
        throw po::error("--pet-clients: " + clients.error().messages.front());
    }
    c.pet.clients = std::move(*clients);
    c.pet.development_credentials = vm["pet-api-keys"].defaulted() || vm["pet-clients"].defaulted();
    const bool has_secret = vm.count("pet-token-secret") != 0;
    c.pet.tokens.secret = has_secret ? vm["pet-token-secret"].as<std::string>() : random_secret();
    c.pet.secret_generated = !has_secret;
    if (c.pet.tokens.secret.size() < 16) {
        throw po::error("--pet-token-secret must be at least 16 characters");
    }
    if (c.pet.tokens.secret == c.tokens.access_secret || c.pet.tokens.secret == c.tokens.refresh_secret) {
        throw po::error("--pet-token-secret must differ from the store token secrets");
    }
    c.pet.tokens.lifetime = positive_seconds(vm, "pet-token-ttl");
    const unsigned pet_port = vm["pet-port"].as<unsigned>();
    if (pet_port > 65535) {
        throw po::error("--pet-port must be between 0 and 65535");
    }
    if (pet_port != 0 && pet_port == c.port) {
        throw po::error("--pet-port must differ from --port");
    }
    c.pet.port = static_cast<std::uint16_t>(pet_port);
    c.pet.image_budget = vm["pet-image-budget"].as<std::size_t>();
}

// --rate-limit N/s and --rate-burst B (default N); the burst without a rate is a mistake worth a refusal.
void parse_rate_limit_options(const po::variables_map& vm, server_config& c) {
    if (!vm.count("rate-limit")) {
        if (vm.count("rate-burst")) {
            throw po::error("--rate-burst needs --rate-limit");
        }
        return;
    }
    const std::string& rate_text = vm["rate-limit"].as<std::string>();
    const auto rate = core::parse_rate(rate_text);
    if (!rate) {
        throw po::error(
            "--rate-limit must be a number of requests per second from 1 to " +
            std::to_string(core::max_rate) + ", written N/s (e.g. 20/s), not '" + rate_text + "'"
        );
    }
    core::rate_limit limit{.per_second = *rate, .burst = *rate};
    if (vm.count("rate-burst")) {
        const std::string& burst_text = vm["rate-burst"].as<std::string>();
        const auto burst = core::parse_burst(burst_text);
        if (!burst) {
            throw po::error(
                "--rate-burst must be a whole number of requests from 1 to " +
                std::to_string(core::max_rate) + ", not '" + burst_text + "'"
            );
        }
        limit.burst = *burst;
    }
    c.rate_limit = limit;
}

// N s|m|h|d (a bare N is seconds), from 1 second to 10 years; nullopt otherwise.
std::optional<std::chrono::seconds> parse_duration(const std::string& text) {
    std::size_t digits = 0;
    while (digits < text.size() && digits < 12 && std::isdigit(static_cast<unsigned char>(text[digits]))) {
        ++digits;
    }
    if (digits == 0 || text.size() - digits > 1) {
        return std::nullopt;
    }
    const long long n = std::stoll(text.substr(0, digits));
    const char unit = digits < text.size() ? text[digits] : 's';
    const long long scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
    const long long seconds = n * scale;
    if (scale == 0 || seconds < 1 || seconds > 10LL * 366 * 86400) {
        return std::nullopt;
    }
    return std::chrono::seconds(seconds);
}

// The count option `name`, which must lie from `low` to `high` (the message says "at most" where `low` is 0).
std::size_t bounded_count(
    const po::variables_map& vm, const std::string& name, std::size_t low, std::size_t high
) {
    const std::size_t value = vm[name].as<std::size_t>();
    if (value < low || value > high) {
        const std::string range = low == 0
                                      ? "at most " + std::to_string(high)
                                      : "between " + std::to_string(low) + " and " + std::to_string(high);
        throw po::error("--" + name + " must be " + range);
    }
    return value;
}

// --sandboxes, --sandbox-max, --sandbox-rows, --sandbox-ttl.
void parse_sandbox_options(const po::variables_map& vm, server_config& c) {
    const std::string& mode = vm["sandboxes"].as<std::string>();
    const auto parsed = core::parse_sandbox_mode(mode);
    if (!parsed) {
        throw po::error("--sandboxes must be off, on or required, not '" + mode + "'");
    }
    c.sandboxes.mode = *parsed;
    c.sandboxes.max_live = bounded_count(vm, "sandbox-max", 1, 1'000'000);
    c.sandboxes.max_rows = bounded_count(vm, "sandbox-rows", 0, 1'000'000);
    const std::string& ttl = vm["sandbox-ttl"].as<std::string>();
    const auto lifetime = parse_duration(ttl);
    if (!lifetime) {
        throw po::error(
            "--sandbox-ttl must be a duration from 1s to 10 years, as N with s, m, h or d, not '" + ttl + "'"
        );
    }
    c.sandboxes.ttl = *lifetime;
}

// --events-history, --events-max-connections, --events-queue.
void parse_event_options(const po::variables_map& vm, server_config& c) {
    c.events.history = bounded_count(vm, "events-history", 1, 10'000'000);
    c.events.max_connections = bounded_count(vm, "events-max-connections", 0, 1'000'000);
    c.events.queue = bounded_count(vm, "events-queue", 1, 1'000'000);
}

// --instance N shifts the listening ports by N, so one environment file (STOREFRONT_PORT=8080) serves
// storefront@1 on 8081, @2 on 8082, … Port 0 (any free port) stays 0.
void apply_instance(const po::variables_map& vm, server_config& c) {
    if (!vm.count("instance")) {
        return;
    }
    const unsigned n = vm["instance"].as<unsigned>();
    if (n > 1000) {
        throw po::error("--instance must be between 0 and 1000");
    }
    c.instance = n;
    const auto shifted = [n](std::uint16_t port, const char* flag) -> std::uint16_t {
        if (port == 0) {
            return 0;
        }
        if (port + n > 65535) {
            throw po::error(std::string(flag) + " + --instance must be at most 65535");
        }
        return static_cast<std::uint16_t>(port + n);
    };
    c.port = shifted(c.port, "--port");
    c.pet.port = shifted(c.pet.port, "--pet-port");
}

}  // namespace

parsed_config parse_config(int argc, const char* const argv[]) {
    const auto d = describe_options();
    parsed_config out;
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, d), vm);
        // Environment second: Program_options keeps values already stored, so flags win over variables.
        po::store(
            po::parse_environment(
                d, [&d](const std::string& variable) { return env_to_option(variable, d); }
            ),
            vm
        );
        po::notify(vm);
        if (vm.count("help")) {
            std::ostringstream help;
            help << "storefront: the demo store API (/api/v1) on Boost.Beast\n\n" << d;
            out.message = help.str();
            return out;
        }
        if (vm.count("version")) {
            out.message = "storefront " STOREFRONT_VERSION;
            return out;
        }
        server_config c;
        c.address = vm["address"].as<std::string>();
        const unsigned port = vm["port"].as<unsigned>();
        if (port > 65535) {
            throw po::error("--port must be between 0 and 65535");
        }
        c.port = static_cast<std::uint16_t>(port);
        c.threads = vm["threads"].as<unsigned>();
        if (c.threads == 0) {
            c.threads = std::max(1U, std::thread::hardware_concurrency());
        }
        if (c.threads > 256) {
            throw po::error("--threads must be at most 256");
        }
        c.access_log = vm["access-log"].as<bool>();
        c.access_log_probes = vm["access-log-probes"].as<bool>();
        try {
            c.proxies = trusted_proxies::parse(vm["trusted-proxies"].as<std::string>());
        } catch (const std::invalid_argument& e) {
            throw po::error(std::string("--trusted-proxies: ") + e.what());
        }
        try {
            c.cors = cors_origins::parse(vm["cors-origins"].as<std::string>());
        } catch (const std::invalid_argument& e) {
            throw po::error(std::string("--cors-origins: ") + e.what());
        }
        parse_rate_limit_options(vm, c);
        parse_sandbox_options(vm, c);
        parse_event_options(vm, c);
        c.graphql.max_depth = bounded_count(vm, "graphql-max-depth", 2, 100);
        c.graphql.max_fields = bounded_count(vm, "graphql-max-fields", 1, 1'000'000);
        const long long drain = vm["drain-seconds"].as<long long>();
        if (drain < 0 || drain > 3600) {
            throw po::error("--drain-seconds must be between 0 and 3600");
        }
        c.drain = std::chrono::seconds(drain);
        const bool has_access = vm.count("access-secret") != 0;
        const bool has_refresh = vm.count("refresh-secret") != 0;
        c.tokens.access_secret = has_access ? vm["access-secret"].as<std::string>() : random_secret();
        c.tokens.refresh_secret = has_refresh ? vm["refresh-secret"].as<std::string>() : random_secret();
        c.secrets_generated = !has_access || !has_refresh;
        if (c.tokens.access_secret.size() < 16 || c.tokens.refresh_secret.size() < 16) {
            throw po::error("token secrets must be at least 16 characters");
        }
        if (c.tokens.access_secret == c.tokens.refresh_secret) {
            throw po::error("--access-secret and --refresh-secret must differ");
        }
        c.tokens.access_lifetime = positive_seconds(vm, "access-ttl");
        c.tokens.refresh_lifetime = positive_seconds(vm, "refresh-ttl");
        c.tokens.family_lifetime = positive_seconds(vm, "session-ttl");
        c.order_ttl = positive_seconds(vm, "order-ttl");
        for (const auto& email : comma_list(vm["admins"].as<std::string>())) {
            const auto normalized = core::normalize_email(email);
            if (!normalized) {
                throw po::error("--admins: '" + email + "' is not an e-mail");
            }
            c.kept_admins.push_back(*normalized);
        }
        c.storage.backend = vm["storage"].as<std::string>();
        if (!storage::kind_of(c.storage.backend)) {
            throw po::error("--storage must be memory, sqlite:PATH or a postgresql:// connection string");
        }
        c.storage.pool_size = std::max<std::size_t>(1, vm["storage-pool"].as<std::size_t>());
        c.limits.storage_threads = std::max<std::size_t>(1, vm["storage-threads"].as<std::size_t>());
        c.limits.storage_queue = std::max<std::size_t>(1, vm["storage-queue"].as<std::size_t>());
        c.reset_data = vm.count("reset-data") != 0;
        c.fault_injection = vm["fault-injection"].as<bool>();
        if (vm.count("location-file")) {
            c.storage.location_file = vm["location-file"].as<std::string>();
        }
        c.storage.generated_locations = vm["generated-locations"].as<std::size_t>();
        c.limits.header_limit = vm["header-limit"].as<std::size_t>();
        c.limits.max_header_fields = vm["max-header-fields"].as<std::size_t>();
        c.limits.body_limit = vm["body-limit"].as<std::size_t>();
        c.limits.form_body_limit = std::min(vm["form-body-limit"].as<std::size_t>(), c.limits.body_limit);
        c.limits.upload_limit = std::max<std::size_t>(1, vm["upload-limit"].as<std::size_t>());
        c.limits.header_timeout = positive_seconds(vm, "header-timeout");
        c.limits.body_timeout = positive_seconds(vm, "body-timeout");
        c.limits.min_body_rate = std::max<std::size_t>(1, vm["min-body-rate"].as<std::size_t>());
        c.limits.keepalive_timeout = positive_seconds(vm, "keepalive-timeout");
        c.limits.write_timeout = positive_seconds(vm, "write-timeout");
        c.limits.max_requests_per_connection =
            std::max<std::size_t>(1, vm["max-requests-per-connection"].as<std::size_t>());
        c.limits.max_connections = std::max<std::size_t>(1, vm["max-connections"].as<std::size_t>());
        c.limits.shutdown_timeout = positive_seconds(vm, "shutdown-timeout");
        c.limits.hash_threads = std::max<std::size_t>(1, vm["hash-threads"].as<std::size_t>());
        c.limits.hash_queue = vm["hash-queue"].as<std::size_t>();
        const auto policy = core::parse_write_policy(vm["write-policy"].as<std::string>());
        if (!policy) {
            throw po::error("--write-policy must be open or roles");
        }
        c.write_policy = *policy;
        const auto compat = core::parse_compat_mode(vm["compat"].as<std::string>());
        if (!compat) {
            throw po::error(
                "--compat must be none or public, not \"" + vm["compat"].as<std::string>() + "\""
            );
        }
        c.compat = *compat;
        if (vm.count("public-url")) {
            c.public_url = vm["public-url"].as<std::string>();
            const bool http = c.public_url.rfind("http://", 0) == 0 || c.public_url.rfind("https://", 0) == 0;
            if (!http || c.public_url.find_first_of(" \t\r\n\"<>") != std::string::npos) {
                throw po::error("--public-url must be an http:// or https:// URL");
            }
        }
        c.limits.upload_budget = vm["upload-budget"].as<std::size_t>();
        parse_pet_options(vm, c);
        apply_instance(vm, c);
        out.config = std::move(c);
    } catch (const std::exception& e) {
        out.message = std::string("storefront: ") + e.what() + "\nTry --help.";
        out.exit_code = 2;
    }
    return out;
}

}  // namespace storefront::server
