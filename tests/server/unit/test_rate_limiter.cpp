// Tests for the per-client bucket table (bounded size, which buckets go first, several threads at once) and
// the rate limit gate (exempt paths, header fields, the 429 of each surface), on an injected clock.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "server/routing/rate_limit.hpp"
#include "server/services/rate_limiter.hpp"

using namespace storefront;
using namespace storefront::server;
using namespace std::chrono_literals;

namespace {

// The table's clock, moved by hand; shared so the limiter can keep a copy of the function.
struct manual_clock {
    std::shared_ptr<std::atomic<std::int64_t>> ns =
        std::make_shared<std::atomic<std::int64_t>>(1'000'000'000);
    rate_limiter::clock_fn fn() const {
        return [ns = ns] { return std::chrono::nanoseconds(ns->load()); };
    }
    void advance(std::chrono::nanoseconds d) { ns->fetch_add(d.count()); }
};

constexpr core::rate_limit five{.per_second = 5, .burst = 5};

int served(rate_limiter& limiter, const std::string& client, int requests) {
    int n = 0;
    for (int i = 0; i < requests; ++i) {
        n += limiter.take(client).allowed ? 1 : 0;
    }
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rate_limiter_unit)

BOOST_AUTO_TEST_CASE(clients_have_separate_buckets) {
    manual_clock clock;
    rate_limiter limiter(five, 1024, clock.fn());
    BOOST_TEST(served(limiter, "192.0.2.1", 20) == 5);
    BOOST_TEST(served(limiter, "192.0.2.2", 20) == 5);
    BOOST_TEST(served(limiter, "192.0.2.1", 1) == 0);
    clock.advance(400ms);
    BOOST_TEST(served(limiter, "192.0.2.1", 20) == 2);
    BOOST_TEST(limiter.size() == 2U);
}

BOOST_AUTO_TEST_CASE(the_table_stays_within_its_bound_under_many_clients) {
    manual_clock clock;
    const std::size_t bound = 16 * 8;  // 8 per shard
    rate_limiter limiter(five, bound, clock.fn());
    for (int i = 0; i < 100'000; ++i) {
        (void)limiter.take("client-" + std::to_string(i));
        BOOST_TEST_REQUIRE(limiter.size() <= bound);
    }
    BOOST_TEST(limiter.size() <= bound);
}

BOOST_AUTO_TEST_CASE(buckets_full_again_are_dropped_first_and_lose_nothing) {
    manual_clock clock;
    rate_limiter limiter(five, 16, clock.fn());  // one client per shard
    BOOST_TEST(served(limiter, "a", 5) == 5);
    clock.advance(1s);  // "a" is full again: dropping it changes nothing for "a"
    for (int i = 0; i < 64; ++i) {
        (void)limiter.take("other-" + std::to_string(i));
    }
    BOOST_TEST(limiter.size() <= 16U);
    BOOST_TEST(served(limiter, "a", 10) == 5);
}

BOOST_AUTO_TEST_CASE(an_active_client_keeps_its_bucket_while_its_shard_has_room) {
    manual_clock clock;
    rate_limiter limiter(five, 1024, clock.fn());
    BOOST_TEST(served(limiter, "busy", 5) == 5);
    for (int i = 0; i < 200; ++i) {  // far below the bound
        (void)limiter.take("other-" + std::to_string(i));
    }
    BOOST_TEST(served(limiter, "busy", 1) == 0);  // still empty: not evicted, not reset
}

BOOST_AUTO_TEST_CASE(several_threads_share_one_bucket_exactly) {
    manual_clock clock;  // frozen: no refill, so exactly the burst is served however threads interleave
    rate_limiter limiter({.per_second = 1, .burst = 1000}, 1024, clock.fn());
    std::atomic<int> allowed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 500; ++i) {
                allowed += limiter.take("shared").allowed ? 1 : 0;
                (void)limiter.take("own-" + std::to_string(t) + "-" + std::to_string(i % 50));
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    BOOST_TEST(allowed.load() == 1000);
}

BOOST_AUTO_TEST_CASE(exempt_paths) {
    for (const std::string target : {"/healthz", "/readyz", "/metrics", "/healthz/", "/metrics?name=x"}) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(rate_limit_exempt(target));
        }
    }
    for (const std::string target :
         {"/", "/api/v1/products", "/healthz/x", "/healthzz", "/api/v1/healthz", "/docs", "/metrics.json"}) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(!rate_limit_exempt(target));
        }
    }
}

BOOST_AUTO_TEST_CASE(header_fields_follow_draft_07) {
    BOOST_TEST(
        rate_limit_header_lines(five, {.allowed = true, .remaining = 3, .reset = 1}) ==
        "RateLimit-Policy: 5;w=1\r\nRateLimit: limit=5, remaining=3, reset=1\r\n"
    );
    // A burst larger than the rate: the window is the time an empty bucket takes to fill.
    BOOST_TEST(
        rate_limit_header_lines(
            {.per_second = 5, .burst = 20}, {.allowed = true, .remaining = 19, .reset = 1}
        ) == "RateLimit-Policy: 20;w=4\r\nRateLimit: limit=20, remaining=19, reset=1\r\n"
    );
}

BOOST_AUTO_TEST_CASE(the_429_has_each_surfaces_error_shape) {
    const core::bucket_verdict refused{.allowed = false, .remaining = 0, .retry_after = 1, .reset = 1};
    const response store = too_many_requests("/api/v1/products?limit=5", five, refused);
    BOOST_TEST(static_cast<unsigned>(store.status) == 429U);
    const auto store_body = boost::json::parse(store.body).as_object();
    BOOST_TEST(store_body.at("statusCode").as_int64() == 429);
    BOOST_TEST(store_body.at("error").as_string() == "Too Many Requests");
    BOOST_TEST(store.extra_headers.find("Retry-After: 1\r\n") != std::string::npos);
    BOOST_TEST(store.extra_headers.find("RateLimit: limit=5, remaining=0, reset=1\r\n") != std::string::npos);

    const response pet = too_many_requests("/api/v3/pet/1", five, refused);
    const auto pet_body = boost::json::parse(pet.body).as_object();
    BOOST_TEST(pet_body.at("code").as_int64() == 429);
    BOOST_TEST(pet_body.contains("message"));
    BOOST_TEST(!pet_body.contains("statusCode"));

    // Other paths, and look-alikes of /api/v3, get the /api/v1 shape.
    for (const std::string target : {"/docs", "/api/v3x/pet", "/nothing"}) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(boost::json::parse(too_many_requests(target, five, refused).body)
                           .as_object()
                           .contains("statusCode"));
        }
    }
}

BOOST_AUTO_TEST_CASE(the_gate_takes_no_token_for_exempt_paths) {
    manual_clock clock;
    rate_limiter limiter({.per_second = 1, .burst = 1}, 64, clock.fn());
    const rate_limit_gate gate(limiter);
    for (int i = 0; i < 5; ++i) {
        const auto probe = gate.admit("/healthz", "192.0.2.9");
        BOOST_TEST(!probe.limited);
        BOOST_TEST(probe.headers.empty());
    }
    const auto first = gate.admit("/api/v1/products", "192.0.2.9");
    BOOST_TEST(first.limited);
    BOOST_TEST(!first.refused);
    BOOST_TEST(first.headers == "RateLimit-Policy: 1;w=1\r\nRateLimit: limit=1, remaining=0, reset=1\r\n");
    const auto second = gate.admit("/api/v1/products", "192.0.2.9");
    BOOST_TEST(second.refused);
    BOOST_TEST(static_cast<unsigned>(second.reply.status) == 429U);
}

BOOST_AUTO_TEST_SUITE_END()
