// Tests for the token bucket: burst, refill, the rounded-up waits (Retry-After, reset), long idle periods and
// a clock that goes backwards, all on an injected clock (plain durations), plus the --rate-limit syntax.
#include <chrono>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/token_bucket.hpp"

using namespace storefront::core;
using namespace std::chrono_literals;
using std::chrono::nanoseconds;

namespace {

// A clock the test moves by hand.
struct fake_clock {
    nanoseconds now{123'456'789};  // any origin: only differences count
    void advance(nanoseconds d) { now += d; }
};

struct bucket_fixture {
    fake_clock clock;
    rate_limit limit{.per_second = 5, .burst = 5};
    token_bucket bucket{limit, clock.now};

    bucket_verdict take() { return bucket.take(limit, clock.now); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(token_bucket_unit)

BOOST_FIXTURE_TEST_CASE(a_fresh_bucket_serves_its_burst_then_refuses, bucket_fixture) {
    for (std::uint32_t i = 0; i < 5; ++i) {
        BOOST_TEST_CONTEXT("request " << i) {
            const auto v = take();
            BOOST_TEST(v.allowed);
            BOOST_TEST(v.remaining == 4 - i);
            BOOST_TEST(v.retry_after == 0U);
            BOOST_TEST(v.reset == 1U);  // at most 5 tokens missing at 5/s: full within a second
        }
    }
    const auto refused = take();
    BOOST_TEST(!refused.allowed);
    BOOST_TEST(refused.remaining == 0U);
    BOOST_TEST(refused.retry_after == 1U);  // 0.2 s to the next token, rounded up to whole seconds
    BOOST_TEST(refused.reset == 1U);
}

BOOST_FIXTURE_TEST_CASE(tokens_come_back_at_the_rate, bucket_fixture) {
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(take().allowed);
    }
    clock.advance(199'999'999ns);  // one nanosecond short of a token
    BOOST_TEST(!take().allowed);
    clock.advance(1ns);
    const auto v = take();
    BOOST_TEST(v.allowed);
    BOOST_TEST(v.remaining == 0U);
    BOOST_TEST(!take().allowed);
    clock.advance(600ms);  // three tokens
    BOOST_TEST(take().allowed);
    BOOST_TEST(take().allowed);
    BOOST_TEST(take().allowed);
    BOOST_TEST(!take().allowed);
}

BOOST_FIXTURE_TEST_CASE(refused_requests_take_nothing, bucket_fixture) {
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(take().allowed);
    }
    for (int i = 0; i < 100; ++i) {
        BOOST_TEST(!take().allowed);
    }
    clock.advance(200ms);
    BOOST_TEST(take().allowed);  // the refusals did not dig the bucket deeper
}

BOOST_FIXTURE_TEST_CASE(the_bucket_never_holds_more_than_its_burst, bucket_fixture) {
    clock.advance(24h * 365 * 100);  // a century idle: no overflow, still just the burst
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(take().allowed);
    }
    BOOST_TEST(!take().allowed);
}

BOOST_FIXTURE_TEST_CASE(a_clock_that_goes_back_adds_nothing, bucket_fixture) {
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(take().allowed);
    }
    clock.now -= 10s;
    BOOST_TEST(!take().allowed);
    clock.now += 10s;  // back at the last reading: still nothing new
    BOOST_TEST(!take().allowed);
    clock.advance(200ms);
    BOOST_TEST(take().allowed);
}

BOOST_FIXTURE_TEST_CASE(full_at_tells_when_the_bucket_is_like_a_fresh_one, bucket_fixture) {
    BOOST_TEST(bucket.full_at(limit, clock.now));
    BOOST_TEST(take().allowed);
    BOOST_TEST(!bucket.full_at(limit, clock.now));
    BOOST_TEST(!bucket.full_at(limit, clock.now + 199ms));
    BOOST_TEST(bucket.full_at(limit, clock.now + 200ms));
    BOOST_TEST(!bucket.full_at(limit, clock.now));  // asking changed nothing
}

BOOST_AUTO_TEST_CASE(retry_after_and_reset_round_up_to_whole_seconds) {
    struct row {
        rate_limit limit;
        std::uint32_t retry_after;  // once the burst is spent
        std::uint32_t reset;        // likewise: seconds until full again
    };
    const std::vector<row> rows = {
        {{.per_second = 1, .burst = 1}, 1, 1},
        {{.per_second = 1, .burst = 10}, 1, 10},
        {{.per_second = 3, .burst = 10}, 1, 4},  // 10 tokens at 3/s: 3.33 s
        {{.per_second = 1000, .burst = 1}, 1, 1},
        {{.per_second = 7, .burst = 7}, 1, 1},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.limit.per_second << "/s burst " << r.limit.burst) {
            const nanoseconds t0{5s};
            token_bucket b(r.limit, t0);
            for (std::uint32_t i = 0; i < r.limit.burst; ++i) {
                BOOST_TEST(b.take(r.limit, t0).allowed);
            }
            const auto v = b.take(r.limit, t0);
            BOOST_TEST(!v.allowed);
            BOOST_TEST(v.retry_after == r.retry_after);
            BOOST_TEST(v.reset == r.reset);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_rate_below_one_per_second_is_not_expressible_but_slow_rates_wait_longer) {
    // 1/s with a burst of 1: after a take, 0.4 s later the next token is still 0.6 s away -> 1 s.
    const rate_limit limit{.per_second = 1, .burst = 1};
    token_bucket b(limit, 0s);
    BOOST_TEST(b.take(limit, 0s).allowed);
    const auto v = b.take(limit, nanoseconds(400ms));
    BOOST_TEST(!v.allowed);
    BOOST_TEST(v.retry_after == 1U);
    BOOST_TEST(b.take(limit, nanoseconds(1s)).allowed);
}

BOOST_AUTO_TEST_CASE(policy_window_is_the_time_to_fill_rounded_up) {
    BOOST_TEST(policy_window({.per_second = 5, .burst = 5}) == 1U);
    BOOST_TEST(policy_window({.per_second = 5, .burst = 1}) == 1U);
    BOOST_TEST(policy_window({.per_second = 5, .burst = 20}) == 4U);
    BOOST_TEST(policy_window({.per_second = 3, .burst = 10}) == 4U);
}

BOOST_AUTO_TEST_CASE(rate_syntax) {
    struct row {
        std::string text;
        std::optional<std::uint32_t> rate;
    };
    const std::vector<row> rows = {
        {"20/s", 20},
        {"20", 20},
        {"1/s", 1},
        {"1000000/s", 1'000'000},
        {"1000001/s", std::nullopt},
        {"0/s", std::nullopt},
        {"0", std::nullopt},
        {"", std::nullopt},
        {"/s", std::nullopt},
        {"-5/s", std::nullopt},
        {"+5/s", std::nullopt},
        {"5 /s", std::nullopt},
        {" 5/s", std::nullopt},
        {"5/m", std::nullopt},
        {"5/sec", std::nullopt},
        {"2.5/s", std::nullopt},
        {"5//s", std::nullopt},
        {"five/s", std::nullopt},
        {"99999999999999999999/s", std::nullopt},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("'" << r.text << "'") {
            BOOST_TEST((parse_rate(r.text) == r.rate));
        }
    }
    BOOST_TEST((parse_burst("40") == std::optional<std::uint32_t>(40)));
    BOOST_TEST(!parse_burst("40/s"));
    BOOST_TEST(!parse_burst("0"));
    BOOST_TEST(!parse_burst("-1"));
}

BOOST_AUTO_TEST_SUITE_END()
