// /readyz's shared storage check: single flight, result cached for a short time, waiters woken by
// cancelling their timers (posted to each waiter's own I/O thread, as Asio timers are not thread-safe).

#include "server/ops/readiness.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "core/enum_names.hpp"
#include "server/routing/error_responses.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/telemetry/log.hpp"
#include "storage/catalogue_store.hpp"

namespace storefront::server {

namespace asio = boost::asio;

struct storage_readiness::waiter {
    // A constructor, not aggregate initialisation: clang 14 (the fuzz build) lacks C++20's parenthesised
    // aggregate init that make_shared needs.
    explicit waiter(asio::steady_timer t) : timer(std::move(t)) {}
    asio::steady_timer timer;
};

// The `status` of /readyz's body for each health.
constexpr core::enum_name<storage_health> health_names[] = {
    {storage_health::reachable, "ready"},
    {storage_health::unavailable, "storage unavailable"},
    {storage_health::busy, "storage busy"},
};

std::string_view describe(storage_health health) {
    return core::name_of_each<storage_health::busy>(health_names, health, "storage unavailable");
}

storage_readiness::storage_readiness(std::chrono::milliseconds ttl, std::chrono::milliseconds bound)
    : ttl_(ttl), bound_(bound) {}

asio::awaitable<storage_health> storage_readiness::check(
    storage::catalogue_store& catalogue, blocking_offload& offload
) {
    const auto executor = co_await asio::this_coro::executor;
    std::shared_ptr<waiter> waiting;
    std::uint64_t seen = 0;
    bool start = false;
    {
        const std::lock_guard lock(mutex_);
        if (have_result_ && std::chrono::steady_clock::now() - checked_at_ < ttl_) {
            co_return last_;
        }
        waiting = std::make_shared<waiter>(asio::steady_timer(executor, bound_));
        waiters_.push_back(waiting);
        seen = generation_;
        start = !in_flight_;
        in_flight_ = true;
    }
    if (start) {
        asio::co_spawn(executor, run_check(catalogue, offload), asio::detached);
    }
    // Ends at the bound, or earlier when publish() cancels it.
    (void)co_await waiting->timer.async_wait(asio::as_tuple(asio::use_awaitable));
    const std::lock_guard lock(mutex_);
    if (generation_ != seen) {
        co_return last_;
    }
    std::erase_if(waiters_, [&waiting](const std::weak_ptr<waiter>& other) {
        return other.expired() || other.lock() == waiting;
    });
    co_return storage_health::unavailable;  // the check is still running: too slow counts as down
}

namespace {

// What a failed check says, through the one mapping of storage failures the request path uses
// (storage_failure_of): a full pool is busy; storage down, or anything unexpected, is unavailable.
storage_health health_after(const std::exception_ptr& failure) {
    if (const auto storage = storage_failure_of(failure)) {
        if (storage->code == core::errc::busy) {
            return storage_health::busy;
        }
        log_event("warning", "readiness_storage_unavailable", {field("what", storage->what)});
        return storage_health::unavailable;
    }
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        log_event("error", "readiness_check_failed", {field("what", e.what())});
    } catch (...) {
        log_event("error", "readiness_check_failed", {field("what", "unknown")});
    }
    return storage_health::unavailable;
}

}  // namespace

asio::awaitable<void> storage_readiness::run_check(
    storage::catalogue_store& catalogue, blocking_offload& offload
) {
    std::exception_ptr failure;
    try {
        // A primary-key lookup of one row through the same pool and connections the API uses: cheap, and
        // it fails exactly when requests would (found or not found both mean the storage answered).
        co_await offload.run([&catalogue] { (void)catalogue.find_category(1); });
    } catch (...) {
        failure = std::current_exception();
    }
    publish(failure ? health_after(failure) : storage_health::reachable);
}

void storage_readiness::publish(storage_health health) {
    std::vector<std::weak_ptr<waiter>> woken;
    {
        const std::lock_guard lock(mutex_);
        if (have_result_ && last_ != health) {
            log_event("info", "readiness_changed", {field("storage", describe(health))});
        }
        have_result_ = true;
        last_ = health;
        checked_at_ = std::chrono::steady_clock::now();
        ++generation_;
        in_flight_ = false;
        woken.swap(waiters_);
    }
    for (const auto& weak : woken) {
        if (const auto woken_one = weak.lock()) {
            asio::post(woken_one->timer.get_executor(), [weak] {
                if (const auto alive = weak.lock()) {
                    alive->timer.cancel();
                }
            });
        }
    }
}

}  // namespace storefront::server
