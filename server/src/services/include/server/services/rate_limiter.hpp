#pragma once
// The per-client token buckets of --rate-limit: a table keyed by client address, bounded in size, shared by
// every I/O thread. The table is split into shards, each with its own mutex and its own least-recently-used
// order, so threads rarely wait for each other and a new client never costs more than O(1): buckets that
// have filled up again are dropped first (a full bucket is the same as a fresh one, so nothing is lost),
// and when a shard is at its bound the client not seen for longest goes.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/token_bucket.hpp"

namespace storefront::server {

class rate_limiter {
  public:
    // A monotonic reading, as a duration since any fixed origin; steady_clock unless a test injects one.
    using clock_fn = std::function<std::chrono::nanoseconds()>;

    // Default bound: about 20 MiB of buckets at most (a bucket with its key and list links is ~150 bytes).
    static constexpr std::size_t default_max_clients = 128 * 1024;

    // Buckets for at most `max_clients` clients (at least one per shard), each with `limit`.
    explicit rate_limiter(
        core::rate_limit limit, std::size_t max_clients = default_max_clients, clock_fn clock = {}
    );
    ~rate_limiter();
    rate_limiter(const rate_limiter&) = delete;
    rate_limiter& operator=(const rate_limiter&) = delete;

    // One request of `client` (any stable key: the client address text): takes a token from its bucket.
    // Thread-safe.
    [[nodiscard]] core::bucket_verdict take(std::string_view client);

    [[nodiscard]] const core::rate_limit& limit() const noexcept { return limit_; }

    // Clients with a bucket now (all shards; for tests and diagnostics, takes every shard's lock).
    [[nodiscard]] std::size_t size() const;

  private:
    struct shard;
    core::rate_limit limit_;
    clock_fn clock_;
    std::vector<std::unique_ptr<shard>> shards_;
};

}  // namespace storefront::server
