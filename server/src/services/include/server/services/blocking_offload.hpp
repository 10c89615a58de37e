#pragma once
// The one way handlers run blocking work (a SQLite or libpq call, an Argon2id hash) without stalling an I/O
// thread: the call runs on a small thread pool and the awaiting coroutine resumes on its own executor. The
// queue is bounded, so a slow database or a flood of logins turns into quick 503s instead of piling up
// memory and latency. A pool built `inline` runs calls on the caller's thread (the memory adapter never
// blocks, and a thread hop would only cost it speed).

#include <atomic>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace storefront::server {

// Thrown by blocking_offload::run when the queue is full; dispatch answers 503 with Retry-After.
class offload_rejected : public std::runtime_error {
  public:
    offload_rejected() : std::runtime_error("offload queue full") {}
};

class blocking_offload {
  public:
    // `threads` pool threads, at most `max_queued` calls waiting or running; threads == 0 runs inline.
    blocking_offload(std::size_t threads, std::size_t max_queued);
    ~blocking_offload();
    blocking_offload(const blocking_offload&) = delete;
    blocking_offload& operator=(const blocking_offload&) = delete;

    // The result of `call()`, computed on the pool; exceptions `call` throws reach the awaiting coroutine.
    // Throws offload_rejected when the queue is full.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> run(Call call);

    // Like run, but nullopt instead of offload_rejected (for callers that answer "busy" themselves).
    template <class Call>
    boost::asio::awaitable<std::optional<std::invoke_result_t<Call&>>> try_run(Call call);

    [[nodiscard]] bool runs_inline() const { return !pool_; }
    [[nodiscard]] std::size_t queued() const { return queued_.load(std::memory_order_relaxed); }
    [[nodiscard]] std::size_t rejected() const { return rejected_.load(std::memory_order_relaxed); }

    // Waits for the running calls; later calls must not be made.
    void stop();

  private:
    // Names the calling pool thread "sf-storage" the first time it runs a call (asio's pool starts its
    // threads itself).
    static void name_pool_thread();
    std::optional<boost::asio::thread_pool> pool_;
    std::size_t max_queued_;
    std::atomic<std::size_t> queued_{0};
    std::atomic<std::size_t> rejected_{0};
};

template <class Call>
boost::asio::awaitable<std::invoke_result_t<Call&>> blocking_offload::run(Call call) {
    // GCC 12 may destroy a temporary passed to a coroutine twice (bug 99576): calls capture by reference.
    static_assert(std::is_trivially_destructible_v<Call>, "capture by reference ([&]) in storage calls");
    using result_type = std::invoke_result_t<Call&>;
    if (!pool_) {
        co_return call();
    }
    if (queued_.fetch_add(1) >= max_queued_) {
        queued_.fetch_sub(1);
        rejected_.fetch_add(1, std::memory_order_relaxed);
        throw offload_rejected();
    }
    struct release {
        std::atomic<std::size_t>& counter;
        ~release() { counter.fetch_sub(1); }
    } guard{queued_};
    // Named locals into co_await, not temporaries: GCC 12 destroys those twice (bug 99576).
    auto on_pool_call = [&call]() -> boost::asio::awaitable<result_type> {
        name_pool_thread();
        co_return call();
    };
    auto on_pool = boost::asio::co_spawn(*pool_, std::move(on_pool_call), boost::asio::use_awaitable);
    if constexpr (std::is_void_v<result_type>) {
        co_await std::move(on_pool);
    } else {
        result_type result = co_await std::move(on_pool);
        co_return result;
    }
}

template <class Call>
boost::asio::awaitable<std::optional<std::invoke_result_t<Call&>>> blocking_offload::try_run(Call call) {
    using result_type = std::invoke_result_t<Call&>;
    std::optional<result_type> result;
    try {
        auto running = run(std::move(call));
        result.emplace(co_await std::move(running));
    } catch (const offload_rejected&) {
    }
    co_return result;
}

}  // namespace storefront::server
