// Tests for the fault injection parameters: accepted plans, every refused value with its message, and the
// failure decision at its edges.
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/fault_injection.hpp"
#include "query_text.hpp"

using namespace storefront::core;

using storefront::test::describe;

BOOST_AUTO_TEST_SUITE(fault_injection)

BOOST_AUTO_TEST_CASE(accepted_table) {
    struct row {
        query_params params;
        std::optional<long long> delay_ms;
        std::optional<int> status;
        std::optional<double> rate;
    };
    const std::vector<row> rows = {
        {{}, {}, {}, {}},
        {{{"offset", "x"}, {"delay", "5"}, {"status", "abc"}}, {}, {}, {}},  // not ours: ignored
        {{{"_delay", "0"}}, 0, {}, {}},
        {{{"_delay", "-0"}}, 0, {}, {}},
        {{{"_delay", "250"}}, 250, {}, {}},
        {{{"_delay", "10000"}}, 10000, {}, {}},
        {{{"_delay", "00042"}}, 42, {}, {}},
        {{{"_status", "400"}}, {}, 400, {}},
        {{{"_status", "404"}}, {}, 404, {}},
        {{{"_status", "418"}}, {}, 418, {}},
        {{{"_status", "500"}}, {}, 500, {}},
        {{{"_status", "599"}}, {}, 599, {}},
        {{{"_fail_rate", "0"}}, {}, {}, 0.0},
        {{{"_fail_rate", "-0"}}, {}, {}, 0.0},
        {{{"_fail_rate", "0.25"}}, {}, {}, 0.25},
        {{{"_fail_rate", ".5"}}, {}, {}, 0.5},
        {{{"_fail_rate", "1"}}, {}, {}, 1.0},
        {{{"_fail_rate", "1.0"}}, {}, {}, 1.0},
        {{{"_fail_rate", "1e-1"}}, {}, {}, 0.1},
        {{{"_delay", "100"}, {"_status", "503"}, {"_fail_rate", "0.5"}}, 100, 503, 0.5},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto plan = parse_fault_plan(r.params);
            BOOST_TEST_REQUIRE(plan.has_value());
            BOOST_TEST(plan->delay.has_value() == r.delay_ms.has_value());
            if (plan->delay && r.delay_ms) {
                BOOST_TEST(plan->delay->count() == *r.delay_ms);
            }
            BOOST_TEST(plan->status.has_value() == r.status.has_value());
            if (plan->status && r.status) {
                BOOST_TEST(*plan->status == *r.status);
            }
            BOOST_TEST(plan->fail_rate.has_value() == r.rate.has_value());
            if (plan->fail_rate && r.rate) {
                BOOST_TEST(*plan->fail_rate == *r.rate);
                BOOST_TEST(!std::signbit(*plan->fail_rate));
            }
            BOOST_TEST(plan->empty() == (!r.delay_ms && !r.status && !r.rate));
        }
    }
}

BOOST_AUTO_TEST_CASE(rejected_table) {
    const std::string nan_delay = "_delay must be a number conforming to the specified constraints";
    const std::string nan_status = "_status must be a number conforming to the specified constraints";
    const std::string nan_rate = "_fail_rate must be a number conforming to the specified constraints";
    struct row {
        query_params params;
        std::vector<std::string> messages;
    };
    const std::vector<row> rows = {
        {{{"_delay", "-1"}}, {"_delay must not be less than 0"}},
        {{{"_delay", "10001"}}, {"_delay must not be greater than 10000"}},
        {{{"_delay", "99999999999999999999"}}, {"_delay must not be greater than 10000"}},
        {{{"_delay", "1.5"}}, {nan_delay}},
        {{{"_delay", "1e3"}}, {nan_delay}},
        {{{"_delay", "abc"}}, {nan_delay}},
        {{{"_delay", ""}}, {nan_delay}},
        {{{"_delay", " 5"}}, {nan_delay}},
        {{{"_delay", "+5"}}, {nan_delay}},
        {{{"_delay", "5ms"}}, {nan_delay}},
        {{{"_delay", "1"}, {"_delay", "2"}}, {"_delay must be given at most once"}},
        {{{"_status", "200"}}, {"_status must not be less than 400"}},
        {{{"_status", "304"}}, {"_status must not be less than 400"}},
        {{{"_status", "399"}}, {"_status must not be less than 400"}},
        {{{"_status", "0"}}, {"_status must not be less than 400"}},
        {{{"_status", "-500"}}, {"_status must not be less than 400"}},
        {{{"_status", "600"}}, {"_status must not be greater than 599"}},
        {{{"_status", "1000"}}, {"_status must not be greater than 599"}},
        {{{"_status", "5xx"}}, {nan_status}},
        {{{"_status", "500.0"}}, {nan_status}},
        {{{"_status", ""}}, {nan_status}},
        {{{"_status", "404"}, {"_status", "500"}}, {"_status must be given at most once"}},
        {{{"_fail_rate", "1.01"}}, {"_fail_rate must not be greater than 1"}},
        {{{"_fail_rate", "2"}}, {"_fail_rate must not be greater than 1"}},
        {{{"_fail_rate", "1e3"}}, {"_fail_rate must not be greater than 1"}},
        {{{"_fail_rate", "-0.1"}}, {"_fail_rate must not be less than 0"}},
        {{{"_fail_rate", "50%"}}, {nan_rate}},
        {{{"_fail_rate", "0,5"}}, {nan_rate}},
        {{{"_fail_rate", "nan"}}, {nan_rate}},
        {{{"_fail_rate", "inf"}}, {nan_rate}},
        {{{"_fail_rate", "1e999"}}, {nan_rate}},
        {{{"_fail_rate", ""}}, {nan_rate}},
        {{{"_fail_rate", "half"}}, {nan_rate}},
        {{{"_fail_rate", "0.1"}, {"_fail_rate", "0.2"}}, {"_fail_rate must be given at most once"}},
        // Every problem at once, in the order _delay, _status, _fail_rate.
        {{{"_fail_rate", "x"}, {"_status", "200"}, {"_delay", "-5"}},
         {"_delay must not be less than 0", "_status must not be less than 400", nan_rate}},
        {{{"_delay", "100"}, {"_status", "700"}}, {"_status must not be greater than 599"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto plan = parse_fault_plan(r.params);
            BOOST_TEST_REQUIRE(plan.has_error());
            BOOST_TEST(plan.error().messages == r.messages, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_CASE(should_fail_table) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double below_one = std::nextafter(1.0, 0.0);
    struct row {
        double rate;
        double random;
        bool fails;
    };
    const std::vector<row> rows = {
        {0.0, 0.0, false},
        {0.0, 0.5, false},
        {0.0, below_one, false},
        {1.0, 0.0, true},
        {1.0, 0.5, true},
        {1.0, below_one, true},
        {0.25, 0.0, true},
        {0.25, 0.2499, true},
        {0.25, 0.25, false},  // [0, rate) fails: exactly `rate` of [0, 1)
        {0.25, 0.9, false},
        {0.5, 0.5, false},
        {0.5, 0.4999999, true},
        {nan, 0.1, false},
        {0.5, nan, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("rate " << r.rate << " random " << r.random) {
            BOOST_TEST(should_fail(r.rate, r.random) == r.fails);
        }
    }
}

BOOST_AUTO_TEST_CASE(should_fail_rate_is_the_share) {
    // Evenly spread randoms: the failing share equals the rate.
    for (const double rate : {0.0, 0.1, 0.5, 0.9, 1.0}) {
        BOOST_TEST_CONTEXT("rate " << rate) {
            int failures = 0;
            constexpr int n = 1000;
            for (int i = 0; i < n; ++i) {
                failures += should_fail(rate, (i + 0.5) / n) ? 1 : 0;
            }
            BOOST_TEST(failures == static_cast<int>(std::lround(rate * n)));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
