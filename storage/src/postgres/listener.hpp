#pragma once
// LISTEN on one dedicated connection per pool: a thread waits for NOTIFY on the pool's channels and hands
// each one's payload to the subscribers of its channel, so in-process caches of every instance notice writes
// made by the others. A lost connection is re-established with back-off; since notifications may have been
// missed meanwhile, every subscriber hears "unknown" when it drops and again when listening resumes.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "postgres/connection.hpp"

namespace storefront::storage::detail {

class pg_listener {
  public:
    // Listens on `channels` over a connection to `dsn` (with `schema` as its search_path, like the pool's).
    pg_listener(std::string dsn, std::string schema, pg_limits limits, std::vector<std::string> channels);
    // Stops the thread (within the poll interval, or a connect attempt's timeout when one is under way).
    ~pg_listener();
    pg_listener(const pg_listener&) = delete;
    pg_listener& operator=(const pg_listener&) = delete;

    // Called on the listener thread with a notification's payload, or nullopt when notifications may have
    // been missed (the connection dropped or came back).
    using heard = std::function<void(std::optional<std::string_view> payload)>;
    // `on_notify` hears every notification on `channel` until unsubscribe(id) returns.
    [[nodiscard]] std::uint64_t subscribe(const std::string& channel, heard on_notify);
    void unsubscribe(std::uint64_t id);

    // How many times listening has (re)started; tests use it to wait until notifications arrive.
    [[nodiscard]] std::uint64_t sessions() const { return sessions_.load(std::memory_order_acquire); }

  private:
    struct subscriber {
        std::string channel;
        heard on_notify;
    };

    void run();
    void deliver(const pg_connection::notification* received);  // nullptr: "unknown" to every subscriber
    void pause(std::chrono::milliseconds how_long);

    std::string dsn_;
    std::string schema_;
    pg_limits limits_;
    std::vector<std::string> channels_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::uint64_t, subscriber> subscribers_;
    std::uint64_t next_id_ = 1;
    bool stop_ = false;
    std::atomic<std::uint64_t> sessions_{0};
    std::thread thread_;
};

// The channel of the registry of sandboxes (sandbox_store): one NOTIFY per create or remove.
inline constexpr const char* sandbox_registry_channel = "storefront_sandboxes";
// The channel of the change feed's history (event_log): one NOTIFY per append, the data set as payload.
inline constexpr const char* event_log_channel = "storefront_events";

}  // namespace storefront::storage::detail
