// The watchdog's probe rounds and its thread: pings only while every I/O thread runs its probes, so a
// stalled io_context (here a real one, blocked on purpose) stops WATCHDOG=1 and a recovered one resumes it.

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/test/unit_test.hpp>

#include "server/ops/watchdog.hpp"

using namespace storefront::server;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(watchdog_unit)

BOOST_AUTO_TEST_CASE(a_round_is_complete_only_when_every_probe_of_it_ran) {
    probe_rounds rounds;
    const auto first = rounds.begin_round(2);
    BOOST_TEST(!first.previous_complete);  // nothing before the first round
    rounds.probe_ran(first.round);
    const auto second = rounds.begin_round(2);
    BOOST_TEST(!second.previous_complete);  // one of two probes ran
    rounds.probe_ran(second.round);
    rounds.probe_ran(first.round);  // a late probe of an ended round does not count for this one
    const auto third = rounds.begin_round(2);
    BOOST_TEST(!third.previous_complete);
    rounds.probe_ran(third.round);
    rounds.probe_ran(third.round);
    const auto fourth = rounds.begin_round(0);
    BOOST_TEST(fourth.previous_complete);
    BOOST_TEST(rounds.begin_round(1).previous_complete);  // a round of no probes is complete at once
}

BOOST_AUTO_TEST_CASE(pings_follow_live_io_threads_and_stop_while_one_is_stalled) {
    boost::asio::io_context a;
    boost::asio::io_context b;
    auto work_a = boost::asio::make_work_guard(a);
    auto work_b = boost::asio::make_work_guard(b);
    std::thread thread_a([&] { a.run(); });
    std::thread thread_b([&] { b.run(); });
    std::atomic<int> pings{0};
    {
        io_watchdog watchdog(
            {[&](std::function<void()> probe) { boost::asio::post(a, std::move(probe)); },
             [&](std::function<void()> probe) { boost::asio::post(b, std::move(probe)); }},
            std::chrono::milliseconds(20),
            [&] { ++pings; }
        );
        watchdog.start();
        std::this_thread::sleep_for(300ms);
        BOOST_TEST(pings.load() >= 5);

        // Stall b: a handler that blocks its only thread, as a runaway request would.
        std::promise<void> release;
        std::promise<void> blocked;
        boost::asio::post(b, [&] {
            blocked.set_value();
            release.get_future().wait();
        });
        blocked.get_future().wait();
        std::this_thread::sleep_for(100ms);  // a round posted before the stall may still complete
        const int before_stall = pings.load();
        std::this_thread::sleep_for(300ms);
        BOOST_TEST(pings.load() == before_stall);  // no ping while b is stuck

        release.set_value();
        std::this_thread::sleep_for(300ms);
        BOOST_TEST(pings.load() >= before_stall + 5);  // b runs again: pings resume
        watchdog.stop();
        const int stopped = pings.load();
        std::this_thread::sleep_for(100ms);
        BOOST_TEST(pings.load() == stopped);
    }
    work_a.reset();
    work_b.reset();
    thread_a.join();
    thread_b.join();
}

BOOST_AUTO_TEST_SUITE_END()
