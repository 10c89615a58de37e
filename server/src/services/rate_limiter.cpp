// The bounded, sharded table of client token buckets behind --rate-limit: a hash map into a
// least-recently-used list per shard, each shard under its own mutex.

#include "server/services/rate_limiter.hpp"

#include <algorithm>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

namespace storefront::server {

namespace {

// A power of two, so that several I/O threads rarely meet on one mutex.
constexpr std::size_t shard_count = 16;

std::chrono::nanoseconds steady_now() {
    return std::chrono::steady_clock::now().time_since_epoch();
}

}  // namespace

struct rate_limiter::shard {
    struct entry {
        std::string client;
        core::token_bucket bucket;
    };
    using lru_list = std::list<entry>;  // most recently seen first

    std::mutex mutex;
    lru_list order;
    // Keys view the entries' own strings (list nodes never move), so each client is stored once.
    std::unordered_map<std::string_view, lru_list::iterator> index;
    std::size_t bound = 1;

    // Room for one more client: drops the least recently seen buckets that are full again (no state lost),
    // then, at the bound, the least recently seen one whatever its level. O(1) amortised: each bucket is
    // dropped at most once.
    void make_room(core::rate_limit limit, std::chrono::nanoseconds now) {
        while (!order.empty() && order.back().bucket.full_at(limit, now)) {
            drop_last();
        }
        while (order.size() >= bound) {
            drop_last();
        }
    }

    void drop_last() {
        index.erase(order.back().client);
        order.pop_back();
    }
};

rate_limiter::rate_limiter(core::rate_limit limit, std::size_t max_clients, clock_fn clock)
    : limit_(limit), clock_(clock ? std::move(clock) : clock_fn(steady_now)) {
    shards_.reserve(shard_count);
    for (std::size_t i = 0; i < shard_count; ++i) {
        shards_.push_back(std::make_unique<shard>());
        shards_.back()->bound = std::max<std::size_t>(1, max_clients / shard_count);
    }
}

rate_limiter::~rate_limiter() = default;

core::bucket_verdict rate_limiter::take(std::string_view client) {
    shard& s = *shards_[std::hash<std::string_view>{}(client) % shard_count];
    const std::lock_guard lock(s.mutex);
    // Read under the lock, so the readings a bucket sees never go backwards between threads.
    const auto now = clock_();
    if (const auto found = s.index.find(client); found != s.index.end()) {
        s.order.splice(s.order.begin(), s.order, found->second);
        return found->second->bucket.take(limit_, now);
    }
    s.make_room(limit_, now);
    s.order.push_front({std::string(client), core::token_bucket(limit_, now)});
    s.index.emplace(s.order.front().client, s.order.begin());
    return s.order.front().bucket.take(limit_, now);
}

std::size_t rate_limiter::size() const {
    std::size_t n = 0;
    for (const auto& s : shards_) {
        const std::lock_guard lock(s->mutex);
        n += s->order.size();
    }
    return n;
}

}  // namespace storefront::server
