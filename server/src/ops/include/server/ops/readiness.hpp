#pragma once
// /readyz's storage check: one cheap real call through the bounded storage offload, shared by every
// request. At most one check runs at a time and its result is reused for `ttl`, so a flood of health checks
// costs the storage pool one call per ttl; a request waits at most `bound` for a running check, so a
// database that hangs gives a quick "not ready" instead of a hanging probe.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include <boost/asio/awaitable.hpp>

namespace storefront::storage {
class catalogue_store;
}

namespace storefront::server {

class blocking_offload;

enum class storage_health {
    reachable,    // the check call answered
    unavailable,  // it threw storage_unavailable (database down, file locked) or did not finish in time
    busy,         // the storage queue was full
};

// "ready" / "storage unavailable" / "storage busy": the `status` of /readyz's body.
[[nodiscard]] std::string_view describe(storage_health health);

class storage_readiness {
  public:
    storage_readiness(std::chrono::milliseconds ttl, std::chrono::milliseconds bound);
    storage_readiness(const storage_readiness&) = delete;
    storage_readiness& operator=(const storage_readiness&) = delete;

    // The storage's health: a result younger than ttl, else the result of a check (started now unless one
    // is running), or `unavailable` when none finished within bound. Never throws for storage trouble.
    [[nodiscard]] boost::asio::awaitable<storage_health> check(
        storage::catalogue_store& catalogue, blocking_offload& offload
    );

  private:
    boost::asio::awaitable<void> run_check(storage::catalogue_store& catalogue, blocking_offload& offload);
    void publish(storage_health health);

    const std::chrono::milliseconds ttl_;
    const std::chrono::milliseconds bound_;
    std::mutex mutex_;
    bool have_result_ = false;
    storage_health last_ = storage_health::unavailable;
    std::chrono::steady_clock::time_point checked_at_{};
    std::uint64_t generation_ = 0;  // results published so far
    bool in_flight_ = false;
    // Requests waiting for the running check: each on its own I/O thread's timer, cancelled to wake it.
    // Weak: a timer lives only as long as its waiting coroutine, never beyond its io_context. (Defined in
    // the .cpp: Asio's timer headers bring POSIX names such as open() into every includer.)
    struct waiter;
    std::vector<std::weak_ptr<waiter>> waiters_;
};

}  // namespace storefront::server
