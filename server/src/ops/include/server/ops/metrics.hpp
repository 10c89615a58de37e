#pragma once
// Process-wide service metrics in the Prometheus text format, kept with relaxed atomic counters in
// fixed arrays (no lock and no allocation per request). Own writer rather than Debian's prometheus-cpp:
// its histograms take a mutex per observation and its label lookups hash strings, while every label here
// (route, method, status) is known at start-up and maps to an array index.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/http/verb.hpp>

#include "server/routing/router.hpp"

namespace storefront::server {

class service_metrics {
  public:
    // Enough for every route of every table (checked by describe_routes) plus "unmatched".
    static constexpr std::size_t max_routes = 96;

    // Remembers the router's routes so that record_request can label them by pattern; called before
    // serving. Only the first call counts (the route tables are static, the same for every router).
    void describe_routes(const router& routes);

    // One answered request: `matched` is its route (nullptr when none matched: 404, 405, OPTIONS,
    // refused framing). Lock-free.
    void record_request(
        const route* matched,
        boost::beast::http::verb method,
        unsigned status,
        std::chrono::steady_clock::duration took,
        std::size_t bytes_in,
        std::size_t bytes_out
    ) noexcept;

    // One request answered from an I/O thread's replay cache (caches/replay_cache), after
    // record_request. Lock-free, sharded per thread like the request counters.
    void replayed() noexcept { my_shard().replayed.fetch_add(1, std::memory_order_relaxed); }

    // One request answered 429 by the rate limit (--rate-limit). Lock-free; no per-client label, so the
    // series stay bounded however many clients there are.
    void rate_limited() noexcept { rate_limited_.fetch_add(1, std::memory_order_relaxed); }

    // Sandboxes holding data (set by each purge pass), and requests refused 507 by a sandbox quota
    // (--sandbox-max, --sandbox-rows). No sandbox label: ids are unbounded.
    void sandboxes_live(std::size_t n) noexcept { sandboxes_live_.store(n, std::memory_order_relaxed); }
    void sandbox_quota_refused() noexcept { sandbox_quota_refusals_.fetch_add(1, std::memory_order_relaxed); }

    // The rows each sandbox open on this instance has added beyond the seed, as of the last purge pass
    // (a histogram recomputed each pass, so its buckets may go down).
    static constexpr std::size_t sandbox_row_bounds[] = {0, 10, 100, 1000, 10000};
    void sandbox_rows(const std::vector<std::size_t>& per_sandbox) noexcept;

    // The shared view's orders in each state (issue 42), as of the last order-expiry pass: one gauge per
    // core::shop_order_status (six fixed labels).
    static constexpr std::size_t order_states = 6;
    void shop_orders(const std::array<std::size_t, order_states>& by_status) noexcept;

    void connection_opened() noexcept { open_connections_.fetch_add(1, std::memory_order_relaxed); }
    void connection_closed() noexcept { open_connections_.fetch_sub(1, std::memory_order_relaxed); }

    // The bounded offload pools, read when scraped (their own counters, so the hot path pays nothing more).
    struct offload_readings {
        std::size_t password_depth = 0;
        std::size_t password_rejections = 0;
        std::size_t storage_depth = 0;
        std::size_t storage_rejections = 0;
        std::size_t write_depth = 0;     // the write lane's (SQLite): queued or running writes
        std::size_t write_batches = 0;   // its transactions so far
        std::size_t batched_writes = 0;  // the writes they carried
    };

    // Everything, in the Prometheus text exposition format 0.0.4.
    [[nodiscard]] std::string exposition(const offload_readings& offload) const;

  private:
    static constexpr std::size_t methods = 8;    // GET HEAD POST PUT DELETE OPTIONS PATCH other
    static constexpr std::size_t statuses = 25;  // the statuses storefront answers, and "other"
    static constexpr std::size_t buckets = 14;   // latency bounds, plus +Inf
    using counter = std::atomic<std::uint64_t>;

    struct route_counters {
        counter requests[methods][statuses] = {};
        counter latency_buckets[buckets + 1] = {};  // non-cumulative here; summed when written
        counter latency_sum_ns{0};
    };

    // Each table's routes are one array: a route's index is its table's base plus its offset there.
    struct table_span {
        const route* begin = nullptr;
        const route* end = nullptr;
        std::size_t base = 0;
    };
    static constexpr std::size_t max_tables = 8;
    std::atomic<std::size_t> table_count_{0};
    table_span tables_[max_tables];
    std::size_t route_count_ = 0;
    std::string labels_[max_routes];  // route="…" per index; the last index is "unmatched"
    // The per-request counters, one copy per shard: each I/O thread adds to its own shard's cache lines
    // (a thread index modulo shard_count), so threads do not bounce shared lines on every request; a
    // scrape sums the shards. Atomic still, as shards may be shared when there are more threads.
    static constexpr std::size_t shard_count = 4;
    struct alignas(64) shard {
        route_counters per_route[max_routes];
        counter bytes_in{0};
        counter bytes_out{0};
        counter replayed{0};
    };
    shard shards_[shard_count];
    std::atomic<std::int64_t> open_connections_{0};
    counter rate_limited_{0};
    counter sandboxes_live_{0};
    counter sandbox_quota_refusals_{0};
    counter sandbox_rows_buckets_[std::size(sandbox_row_bounds) + 1] = {};  // non-cumulative, +Inf last
    counter sandbox_rows_sum_{0};
    counter shop_orders_[order_states] = {};

    std::once_flag described_;

    void describe_once(const router& routes);
    [[nodiscard]] shard& my_shard() noexcept;
    // A counter summed over the shards.
    template <class Read>
    [[nodiscard]] std::uint64_t summed(Read read) const noexcept {
        std::uint64_t total = 0;
        for (const shard& s : shards_) {
            total += read(s).load(std::memory_order_relaxed);
        }
        return total;
    }
    [[nodiscard]] std::size_t index_of(const route* r) const noexcept;
};

// The one instance of the process (Prometheus' usual process-wide default registry).
[[nodiscard]] service_metrics& metrics();

}  // namespace storefront::server
