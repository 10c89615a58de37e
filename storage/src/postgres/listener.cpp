// pg_listener: the LISTEN thread, its reconnect loop with back-off, and the subscriber table.

#include "postgres/listener.hpp"

#include <algorithm>
#include <pthread.h>
#include <vector>

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

namespace {

constexpr std::chrono::milliseconds poll_interval{200};

}  // namespace

pg_listener::pg_listener(
    std::string dsn, std::string schema, pg_limits limits, std::vector<std::string> channels
)
    : dsn_(std::move(dsn)), schema_(std::move(schema)), limits_(limits), channels_(std::move(channels)) {
    thread_ = std::thread([this] {
        (void)::pthread_setname_np(::pthread_self(), "sf-pg-listen");  // for top -H, perf and gdb
        run();
    });
}

pg_listener::~pg_listener() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t pg_listener::subscribe(const std::string& channel, heard on_notify) {
    std::lock_guard lock(mutex_);
    const auto id = next_id_++;
    subscribers_.emplace(id, subscriber{channel, std::move(on_notify)});
    return id;
}

void pg_listener::unsubscribe(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    subscribers_.erase(id);
}

void pg_listener::deliver(const pg_connection::notification* received) {
    // Under the lock: unsubscribe() returns only once no callback of its subscriber runs.
    std::lock_guard lock(mutex_);
    for (auto& [id, s] : subscribers_) {
        if (!received) {
            s.on_notify(std::nullopt);
        } else if (s.channel == received->channel) {
            s.on_notify(std::string_view(received->payload));
        }
    }
}

void pg_listener::pause(std::chrono::milliseconds how_long) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, how_long, [this] { return stop_; });
}

void pg_listener::run() {
    std::unique_ptr<pg_connection> conn;
    std::chrono::milliseconds backoff{0};
    std::vector<pg_connection::notification> received;
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (stop_) {
                return;
            }
        }
        if (!conn) {
            try {
                auto fresh = std::make_unique<pg_connection>(dsn_, limits_, schema_);
                for (const auto& channel : channels_) {
                    (void)fresh->exec("LISTEN " + fresh->quote_identifier(channel));
                }
                conn = std::move(fresh);
                backoff = std::chrono::milliseconds{0};
                sessions_.fetch_add(1, std::memory_order_acq_rel);
                deliver(nullptr);              // whatever happened while nobody listened
            } catch (const std::exception&) {  // storage_unavailable, or a server refusing LISTEN
                backoff = std::clamp(backoff * 2, first_backoff, max_backoff);
                pause(backoff);
            }
            continue;
        }
        try {
            received.clear();
            conn->wait_for_notifications(poll_interval, received);
            for (const auto& n : received) {
                deliver(&n);
            }
        } catch (const storage_unavailable&) {
            conn.reset();
            deliver(nullptr);
        }
    }
}

}  // namespace storefront::storage::detail
