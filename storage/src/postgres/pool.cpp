// pg_pool: borrowing with a deadline, reconnect back-off, the process-wide registry of pools by DSN and
// schema.

#include "postgres/pool.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "postgres/schema.hpp"
#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

pg_pool::pg_pool(pg_target target, std::size_t size, pg_limits limits)
    : target_(std::move(target)), size_(std::max<std::size_t>(1, size)), limits_(limits) {}

pg_pool::lease::~lease() {
    if (conn_) {
        pool_->give_back(std::move(conn_));
    }
}

pg_pool::lease pg_pool::borrow() {
    using clock = std::chrono::steady_clock;
    std::unique_lock lock(mutex_);
    const auto deadline = clock::now() + borrow_timeout_;
    for (;;) {
        while (!idle_.empty()) {
            auto conn = std::move(idle_.back());
            idle_.pop_back();
            if (conn->still_open()) {  // not one the server closed while it sat idle (a restart)
                return lease(*this, std::move(conn));
            }
            --open_;
        }
        if (open_ < size_) {
            if (clock::now() < next_attempt_) {
                throw storage_unavailable("PostgreSQL unreachable (waiting before the next attempt)");
            }
            ++open_;
            lock.unlock();
            try {
                auto conn = std::make_unique<pg_connection>(target_.dsn, limits_, target_.schema);
                lock.lock();
                backoff_ = std::chrono::milliseconds{0};
                return lease(*this, std::move(conn));
            } catch (...) {
                lock.lock();
                --open_;
                backoff_ = std::clamp(backoff_ * 2, first_backoff, max_backoff);
                next_attempt_ = clock::now() + backoff_;
                returned_.notify_one();
                throw;
            }
        }
        if (returned_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
            open_ >= size_) {
            throw storage_unavailable("no PostgreSQL connection free in time");
        }
    }
}

void pg_pool::give_back(std::unique_ptr<pg_connection> conn) {
    {
        std::lock_guard lock(mutex_);
        if (conn->healthy()) {
            idle_.push_back(std::move(conn));
        } else {
            --open_;
        }
    }
    returned_.notify_one();
    conn.reset();  // a broken one is closed outside the lock
}

void pg_pool::ensure_schema(pg_connection& conn) {
    {
        std::lock_guard lock(mutex_);
        if (schema_ready_) {
            return;
        }
    }
    migrate_schema(conn, target_.schema);
    std::lock_guard lock(mutex_);
    schema_ready_ = true;
}

pg_listener& pg_pool::listener() {
    std::lock_guard lock(mutex_);
    if (!listener_) {
        // The channels of this target's aggregates; the shared view's listener also hears the registry of
        // sandboxes, whose rows live in the shared view.
        std::vector<std::string> channels;
        for (const char* name : notified_aggregates) {
            channels.push_back(pg_channel(target_.schema, name));
        }
        if (target_.schema.empty()) {
            channels.emplace_back(sandbox_registry_channel);
            channels.emplace_back(event_log_channel);
        }
        listener_ = std::make_unique<pg_listener>(target_.dsn, target_.schema, limits_, std::move(channels));
    }
    return *listener_;
}

std::shared_ptr<pg_pool> shared_pg_pool(const pg_target& target, std::size_t size) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, std::weak_ptr<pg_pool>> pools;
    std::lock_guard lock(mutex);
    const auto key = std::make_pair(target.dsn, target.schema);
    if (auto pool = pools[key].lock()) {
        return pool;
    }
    std::erase_if(pools, [](const auto& entry) { return entry.second.expired(); });
    auto pool = std::make_shared<pg_pool>(target, size);
    pools[key] = pool;
    return pool;
}

}  // namespace storefront::storage::detail
