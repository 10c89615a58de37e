// The bounded offload helper: calls run off the awaiting thread, results and exceptions come back, a full
// queue refuses at once instead of waiting, and the inline mode stays on the caller's thread.

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/test/unit_test.hpp>

#include "server/services/blocking_offload.hpp"

namespace asio = boost::asio;
using storefront::server::blocking_offload;
using storefront::server::offload_rejected;

namespace {

// Runs `coroutine` on a fresh io_context until it finishes and returns its result.
template <class Coroutine>
auto run_on_io(Coroutine coroutine) {
    asio::io_context io;
    auto done = asio::co_spawn(io, std::move(coroutine), asio::use_future);
    io.run();
    return done.get();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(blocking_offload_pool)

BOOST_AUTO_TEST_CASE(runs_calls_on_the_pool_and_returns_their_results) {
    blocking_offload pool(2, 8);
    const auto caller = std::this_thread::get_id();
    const auto ran_on = run_on_io([&]() -> asio::awaitable<std::thread::id> {
        co_return co_await pool.run([] { return std::this_thread::get_id(); });
    });
    BOOST_TEST((ran_on != caller));
}

BOOST_AUTO_TEST_CASE(exceptions_reach_the_awaiting_coroutine) {
    blocking_offload pool(1, 8);
    const bool caught = run_on_io([&]() -> asio::awaitable<bool> {
        try {
            co_await pool.run([]() -> int { throw std::runtime_error("database down"); });
        } catch (const std::runtime_error&) {
            co_return true;
        }
        co_return false;
    });
    BOOST_TEST(caught);
}

BOOST_AUTO_TEST_CASE(a_full_queue_refuses_at_once) {
    blocking_offload pool(1, 1);
    std::promise<void> release;
    auto released = release.get_future().share();
    asio::io_context io;
    // The first call occupies the only slot until released.
    auto first = asio::co_spawn(
        io,
        [&]() -> asio::awaitable<int> {
            co_return co_await pool.run([&released] {
                released.wait();
                return 1;
            });
        },
        asio::use_future
    );
    auto second = asio::co_spawn(
        io,
        [&]() -> asio::awaitable<bool> {
            try {
                co_await pool.run([] { return 2; });
            } catch (const offload_rejected&) {
                co_return true;
            }
            co_return false;
        },
        asio::use_future
    );
    std::thread runner([&] { io.run(); });
    BOOST_TEST(second.get());  // refused while the first still runs
    BOOST_TEST(pool.rejected() == 1u);
    release.set_value();
    BOOST_TEST(first.get() == 1);
    runner.join();
    BOOST_TEST(pool.queued() == 0u);
}

BOOST_AUTO_TEST_CASE(inline_mode_runs_on_the_callers_thread) {
    blocking_offload pool(0, 1);
    BOOST_TEST(pool.runs_inline());
    const auto caller = std::this_thread::get_id();
    const auto ran_on = run_on_io([&]() -> asio::awaitable<std::thread::id> {
        co_return co_await pool.run([] { return std::this_thread::get_id(); });
    });
    BOOST_TEST((ran_on == caller));
}

BOOST_AUTO_TEST_SUITE_END()
