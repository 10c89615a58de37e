// The metrics registry: route labels fixed at start-up, relaxed atomic counters on the hot path, and the
// text exposition written only when /metrics is scraped.

#include "server/ops/metrics.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <stdexcept>

#include "core/order_states.hpp"
#include "server/caches/response_cache.hpp"
#include "server/services/event_hub.hpp"
#include "server/services/login_brake.hpp"
#include "server/services/shop_counters.hpp"
#include "server/version.hpp"

namespace storefront::server {

namespace {

using http_verb = boost::beast::http::verb;

// The methods counted by name, in series order; any other is counted as "other" (the last index).
constexpr std::array counted_methods{
    http_verb::get,
    http_verb::head,
    http_verb::post,
    http_verb::put,
    http_verb::delete_,
    http_verb::options,
    http_verb::patch};

std::size_t method_index(http_verb v) noexcept {
    return static_cast<std::size_t>(
        std::find(counted_methods.begin(), counted_methods.end(), v) - counted_methods.begin()
    );
}

// The method of series `m` as a request line spells it ("GET", "DELETE"), or "other".
std::string method_name(std::size_t m) {
    if (m >= counted_methods.size()) {
        return "other";
    }
    const auto name = boost::beast::http::to_string(counted_methods[m]);
    return std::string(name.data(), name.size());
}

// Every status storefront answers; anything else is counted as "other" (index 24).
constexpr std::array<unsigned, 24> known_statuses{200, 201, 204, 206, 304, 400, 401, 403, 404, 405, 406, 409,
                                                  411, 413, 415, 416, 417, 429, 431, 500, 501, 503, 505, 507};

std::size_t status_index(unsigned status) noexcept {
    for (std::size_t i = 0; i < known_statuses.size(); ++i) {
        if (known_statuses[i] == status) {
            return i;
        }
    }
    return known_statuses.size();
}

// Upper bounds in seconds: from a cached page (tens of µs) to an Argon2id login (~100 ms) and beyond.
constexpr std::array<double, 14> bucket_bounds{
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0};
constexpr std::array<std::int64_t, 14> bucket_bounds_ns{
    50'000,
    100'000,
    250'000,
    500'000,
    1'000'000,
    2'500'000,
    5'000'000,
    10'000'000,
    25'000'000,
    50'000'000,
    100'000'000,
    250'000'000,
    500'000'000,
    1'000'000'000};

// A counter or gauge of one value, as /metrics writes it.
struct scalar_metric {
    std::string_view name;
    std::string_view type;
    std::string_view help;
    std::uint64_t value;
};

std::string number(double v) {
    std::array<char, 32> buf{};
    const int n = std::snprintf(buf.data(), buf.size(), "%.9g", v);
    return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace

void service_metrics::describe_routes(const router& routes) {
    // The tables are static, so every router of the process has the same routes: the first call describes
    // them, and later ones (tests start several servers) change nothing a serving thread reads.
    std::call_once(described_, [&] { describe_once(routes); });
}

void service_metrics::describe_once(const router& routes) {
    if (routes.tables().size() > max_tables) {
        throw std::logic_error("service_metrics: more route tables than max_tables");
    }
    std::size_t n = 0;
    std::size_t t = 0;
    for (const route_table* table : routes.tables()) {
        if (n + table->routes.size() >= max_routes) {
            throw std::logic_error("service_metrics: more routes than max_routes");
        }
        tables_[t++] = {table->routes.data(), table->routes.data() + table->routes.size(), n};
        for (const route& r : table->routes) {
            // Pattern and operation: one pattern has a route per verb, each with its own series.
            labels_[n++] =
                "route=\"" + std::string(r.pattern) + "\",operation=\"" + std::string(r.operation) + "\"";
        }
    }
    labels_[max_routes - 1] = "route=\"unmatched\",operation=\"\"";
    route_count_ = n;
    table_count_.store(t, std::memory_order_release);
}

std::size_t service_metrics::index_of(const route* r) const noexcept {
    const std::size_t n = table_count_.load(std::memory_order_acquire);
    for (std::size_t t = 0; r != nullptr && t < n; ++t) {
        if (!std::less<>{}(r, tables_[t].begin) && std::less<>{}(r, tables_[t].end)) {
            return tables_[t].base + static_cast<std::size_t>(r - tables_[t].begin);
        }
    }
    return max_routes - 1;
}

service_metrics::shard& service_metrics::my_shard() noexcept {
    static std::atomic<std::size_t> next_thread{0};
    thread_local const std::size_t index = next_thread.fetch_add(1, std::memory_order_relaxed) % shard_count;
    return shards_[index];
}

void service_metrics::record_request(
    const route* matched,
    http_verb method,
    unsigned status,
    std::chrono::steady_clock::duration took,
    std::size_t bytes_in,
    std::size_t bytes_out
) noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    shard& mine = my_shard();
    route_counters& c = mine.per_route[index_of(matched)];
    c.requests[method_index(method)][status_index(status)].fetch_add(1, relaxed);
    const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(took).count();
    std::size_t bucket = 0;
    while (bucket < bucket_bounds_ns.size() && ns > bucket_bounds_ns[bucket]) {
        ++bucket;
    }
    c.latency_buckets[bucket].fetch_add(1, relaxed);
    c.latency_sum_ns.fetch_add(static_cast<std::uint64_t>(ns < 0 ? 0 : ns), relaxed);
    mine.bytes_in.fetch_add(bytes_in, relaxed);
    mine.bytes_out.fetch_add(bytes_out, relaxed);
}

std::string service_metrics::exposition(const offload_readings& offload) const {
    constexpr auto relaxed = std::memory_order_relaxed;
    const std::size_t n = table_count_.load(std::memory_order_acquire) == 0 ? 0 : route_count_;
    std::string out;
    out.reserve(16 * 1024);
    const auto each_route = [&](auto&& write) {
        for (std::size_t i = 0; i < n; ++i) {
            write(i);
        }
        write(max_routes - 1);
    };

    out +=
        "# HELP storefront_http_requests_total Answered HTTP requests by route pattern, method and status.\n";
    out += "# TYPE storefront_http_requests_total counter\n";
    each_route([&](std::size_t i) {
        for (std::size_t m = 0; m < methods; ++m) {
            for (std::size_t s = 0; s < statuses; ++s) {
                const std::uint64_t v =
                    summed([&](const shard& sh) -> const counter& { return sh.per_route[i].requests[m][s]; });
                if (v == 0) {
                    continue;
                }
                const std::string status =
                    s < known_statuses.size() ? std::to_string(known_statuses[s]) : std::string("other");
                out += "storefront_http_requests_total{" + labels_[i] + ",method=\"" + method_name(m) +
                       "\",status=\"" + status + "\"} " + std::to_string(v) + "\n";
            }
        }
    });

    out +=
        "# HELP storefront_http_request_duration_seconds Time from the request head to the answer written.\n";
    out += "# TYPE storefront_http_request_duration_seconds histogram\n";
    each_route([&](std::size_t i) {
        std::uint64_t cumulative = 0;
        std::array<std::uint64_t, buckets + 1> counts{};
        std::uint64_t total = 0;
        for (std::size_t b = 0; b <= buckets; ++b) {
            counts[b] =
                summed([&](const shard& sh) -> const counter& { return sh.per_route[i].latency_buckets[b]; });
            total += counts[b];
        }
        const std::uint64_t sum_ns =
            summed([&](const shard& sh) -> const counter& { return sh.per_route[i].latency_sum_ns; });
        if (total == 0) {
            return;  // a route's series appear with its first request, as its request counters do
        }
        for (std::size_t b = 0; b < buckets; ++b) {
            cumulative += counts[b];
            out += "storefront_http_request_duration_seconds_bucket{" + labels_[i] + ",le=\"" +
                   number(bucket_bounds[b]) + "\"} " + std::to_string(cumulative) + "\n";
        }
        cumulative += counts[buckets];
        out += "storefront_http_request_duration_seconds_bucket{" + labels_[i] + ",le=\"+Inf\"} " +
               std::to_string(cumulative) + "\n";
        out += "storefront_http_request_duration_seconds_sum{" + labels_[i] + "} " +
               number(static_cast<double>(sum_ns) / 1e9) + "\n";
        out += "storefront_http_request_duration_seconds_count{" + labels_[i] + "} " +
               std::to_string(cumulative) + "\n";
    });

    // Counters and gauges of one value each, written in the order given.
    const auto scalars = [&](std::initializer_list<scalar_metric> metrics) {
        for (const scalar_metric& m : metrics) {
            out.append("# HELP ").append(m.name).append(" ").append(m.help).append("\n");
            out.append("# TYPE ").append(m.name).append(" ").append(m.type).append("\n");
            out.append(m.name).append(" ").append(std::to_string(m.value)).append("\n");
        }
    };
    // clang-format off
    scalars({
        {"storefront_http_received_bytes_total",      "counter",  "Request bytes read (head and body).",                                                             summed([](const shard& sh) -> const counter& { return sh.bytes_in; })},
        {"storefront_http_sent_bytes_total",          "counter",  "Response bytes written (head and body).",                                                         summed([](const shard& sh) -> const counter& { return sh.bytes_out; })},
        {"storefront_open_connections",               "gauge",    "Client connections open now.",                                                                    static_cast<std::uint64_t>(open_connections_.load(relaxed))},
        {"storefront_rate_limited_total",             "counter",  "Requests answered 429 because their client was over --rate-limit.",                               rate_limited_.load(relaxed)},
        {"storefront_login_refusals_total",           "counter",  "Logins answered 429 by the login brake (too many failed logins for the account or the client).",  login_brake::counted().refused},
        {"storefront_login_failures_total",           "counter",  "Logins refused for a wrong e-mail, username or password (counted by the login brake).",           login_brake::counted().failed},
    });
    // clang-format on
    out +=
        "# HELP storefront_shop_orders Orders of the shared data set in each state, as of the last "
        "order-expiry pass.\n# TYPE storefront_shop_orders gauge\n";
    for (std::size_t s = 0; s < order_states; ++s) {
        out += "storefront_shop_orders{status=\"" +
               std::string(core::to_string(static_cast<core::shop_order_status>(s))) + "\"} " +
               std::to_string(shop_orders_[s].load(relaxed)) + "\n";
    }
    const auto payments = shop_counters::counted();
    out +=
        "# HELP storefront_shop_payments_total Payments answered since start, by outcome (a 3-D Secure "
        "completion and a refund count their outcome too).\n# TYPE storefront_shop_payments_total counter\n";
    out +=
        "storefront_shop_payments_total{outcome=\"succeeded\"} " + std::to_string(payments.succeeded) + "\n";
    out += "storefront_shop_payments_total{outcome=\"failed\"} " + std::to_string(payments.failed) + "\n";
    out += "storefront_shop_payments_total{outcome=\"requires_action\"} " +
           std::to_string(payments.requires_action) + "\n";
    out += "storefront_shop_payments_total{outcome=\"refunded\"} " + std::to_string(payments.refunded) + "\n";
    // clang-format off
    scalars({
        {"storefront_sandboxes_live",                 "gauge",    "Sandboxes holding data of their own (as of the last purge pass).",                                sandboxes_live_.load(relaxed)},
    });
    // clang-format on
    out +=
        "# HELP storefront_sandbox_rows Rows the sandboxes open on this instance have added beyond the seed "
        "(products, categories, users, pets), recomputed by each purge pass.\n";
    out += "# TYPE storefront_sandbox_rows histogram\n";
    std::uint64_t sandboxes = 0;
    for (std::size_t b = 0; b < std::size(sandbox_row_bounds); ++b) {
        sandboxes += sandbox_rows_buckets_[b].load(relaxed);
        out += "storefront_sandbox_rows_bucket{le=\"" + std::to_string(sandbox_row_bounds[b]) + "\"} " +
               std::to_string(sandboxes) + "\n";
    }
    sandboxes += sandbox_rows_buckets_[std::size(sandbox_row_bounds)].load(relaxed);
    out += "storefront_sandbox_rows_bucket{le=\"+Inf\"} " + std::to_string(sandboxes) + "\n";
    out += "storefront_sandbox_rows_sum " + std::to_string(sandbox_rows_sum_.load(relaxed)) + "\n";
    out += "storefront_sandbox_rows_count " + std::to_string(sandboxes) + "\n";
    // clang-format off
    scalars({
        {"storefront_sandbox_quota_refusals_total",   "counter",  "Requests answered 507 because a sandbox quota was reached (--sandbox-max, --sandbox-rows).",      sandbox_quota_refusals_.load(relaxed)},
        {"storefront_password_queue_depth",           "gauge",    "Argon2id jobs queued or running on the password worker.",                                         offload.password_depth},
        {"storefront_password_rejections_total",      "counter",  "Argon2id jobs refused because the password worker's queue was full (answered 503).",              offload.password_rejections},
        {"storefront_storage_queue_depth",            "gauge",    "Blocking storage calls (SQLite, PostgreSQL) queued or running on the storage pool.",              offload.storage_depth},
        {"storefront_storage_rejections_total",       "counter",  "Storage calls refused because the storage pool's queue was full (answered 503).",                 offload.storage_rejections},
        {"storefront_write_queue_depth",              "gauge",    "Durable catalogue and user writes queued or running on the write lane, to share a commit.",       offload.write_depth},
        {"storefront_write_batches_total",            "counter",  "Transactions the write lane ran, each one commit shared by the writes queued together.",          offload.write_batches},
        {"storefront_batched_writes_total",           "counter",  "Writes the write lane's transactions carried (divided by the batches: writes per commit).",       offload.batched_writes},
        {"storefront_replayed_requests_total",        "counter",  "GETs answered again from an I/O thread's replay cache, without parsing or routing.",              summed([](const shard& sh) -> const counter& { return sh.replayed; })},
        {"storefront_response_cache_hits_total",      "counter",  "Pre-serialised list answers served from the cache.",                                              response_cache_counters().hits.load(relaxed)},
        {"storefront_response_cache_rebuilds_total",  "counter",  "Pre-serialised lists reread whole because the store could not say which rows changed.",           response_cache_counters().rebuilds.load(relaxed)},
        {"storefront_response_cache_patches_total",   "counter",  "Pre-serialised lists brought up to date by re-serialising only the rows a write changed.",        response_cache_counters().patches.load(relaxed)},
        {"storefront_event_subscribers",              "gauge",    "Change feed streams (SSE) open now.",                                                             event_feed_counters().subscribers.load(relaxed)},
        {"storefront_events_sent_total",              "counter",  "Change feed events written to streams (a replayed event counts once per stream).",                event_feed_counters().events_sent.load(relaxed)},
        {"storefront_event_overflow_closes_total",    "counter",  "Change feed streams closed because their client could not keep up (the last event: overflow).",   event_feed_counters().overflow_closes.load(relaxed)},
        {"storefront_event_streams_refused_total",    "counter",  "Change feed streams refused with 503 at --events-max-connections.",                               event_feed_counters().refused.load(relaxed)},
    });
    // clang-format on
    out += "# HELP storefront_build_info The running build.\n# TYPE storefront_build_info gauge\n";
    out += "storefront_build_info{version=\"" STOREFRONT_VERSION "\",compiler=\"" __VERSION__ "\"} 1\n";
    return out;
}

void service_metrics::sandbox_rows(const std::vector<std::size_t>& per_sandbox) noexcept {
    std::uint64_t counts[std::size(sandbox_row_bounds) + 1] = {};
    std::uint64_t sum = 0;
    for (const std::size_t rows : per_sandbox) {
        std::size_t b = 0;
        while (b < std::size(sandbox_row_bounds) && rows > sandbox_row_bounds[b]) {
            ++b;
        }
        ++counts[b];
        sum += rows;
    }
    for (std::size_t b = 0; b <= std::size(sandbox_row_bounds); ++b) {
        sandbox_rows_buckets_[b].store(counts[b], std::memory_order_relaxed);
    }
    sandbox_rows_sum_.store(sum, std::memory_order_relaxed);
}

void service_metrics::shop_orders(const std::array<std::size_t, order_states>& by_status) noexcept {
    for (std::size_t s = 0; s < order_states; ++s) {
        shop_orders_[s].store(by_status[s], std::memory_order_relaxed);
    }
}

service_metrics& metrics() {
    static service_metrics instance;
    return instance;
}

}  // namespace storefront::server
