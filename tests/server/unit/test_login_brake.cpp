// The login brake's arithmetic with an injected clock: free failures, the doubling and bounded pause,
// attempts in flight counted against the budget, a success resetting the account, and forgetting.

#include <boost/test/unit_test.hpp>

#include "server/services/login_brake.hpp"

using storefront::server::login_brake;
using storefront::server::login_brake_settings;
using namespace std::chrono_literals;

namespace {

constexpr auto failure = login_brake::outcome::failure;
constexpr auto success = login_brake::outcome::success;

// One attempt at `now` that fails; false when the brake refused it.
bool fail_once(login_brake& brake, std::int64_t now, const char* account = "a", const char* client = "") {
    if (!brake.admit(account, client, now).admitted) {
        return false;
    }
    brake.settle(account, client, failure, now);
    return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(login_brake_rules)

BOOST_AUTO_TEST_CASE(free_failures_then_a_doubling_pause_bounded_by_the_maximum) {
    login_brake brake({.account_free_failures = 3, .first_pause = 1s, .max_pause = 4s});
    std::int64_t now = 1'000'000;
    for (int i = 0; i < 3; ++i) {
        BOOST_TEST(fail_once(brake, now));
    }
    auto refused = brake.admit("a", "", now);
    BOOST_TEST(!refused.admitted);
    BOOST_TEST(refused.retry_after == 1u);
    BOOST_TEST(brake.admit("b", "", now).admitted);  // another account is free
    now += 1000;
    BOOST_TEST(fail_once(brake, now));  // fourth: 2 s now
    BOOST_TEST(brake.admit("a", "", now + 1999).retry_after == 1u);
    BOOST_TEST(!brake.admit("a", "", now + 1999).admitted);
    now += 2000;
    BOOST_TEST(fail_once(brake, now));  // fifth: 4 s
    now += 4000;
    BOOST_TEST(fail_once(brake, now));  // sixth: still 4 s, the maximum
    BOOST_TEST(brake.admit("a", "", now).retry_after == 4u);
}

BOOST_AUTO_TEST_CASE(attempts_in_flight_count_against_the_budget) {
    login_brake brake({.account_free_failures = 2});
    const std::int64_t now = 5'000;
    BOOST_TEST(brake.admit("a", "", now).admitted);
    BOOST_TEST(brake.admit("a", "", now).admitted);
    BOOST_TEST(!brake.admit("a", "", now).admitted);  // two guesses already out
    brake.settle("a", "", login_brake::outcome::undecided, now);
    BOOST_TEST(brake.admit("a", "", now).admitted);  // an undecided attempt gave its place back
}

BOOST_AUTO_TEST_CASE(a_success_resets_the_account_and_quiet_forgets) {
    login_brake brake({.account_free_failures = 2, .client_free_failures = 100, .forget_after = 60s});
    std::int64_t now = 0;
    BOOST_TEST(fail_once(brake, now, "a", "10.0.0.1"));
    BOOST_TEST(brake.admit("a", "10.0.0.1", now).admitted);
    brake.settle("a", "10.0.0.1", success, now);
    BOOST_TEST(fail_once(brake, now, "a", "10.0.0.1"));
    BOOST_TEST(fail_once(brake, now, "a", "10.0.0.1"));  // two since the success: now paused
    BOOST_TEST(!brake.admit("a", "10.0.0.1", now).admitted);
    now += 60'000;
    BOOST_TEST(brake.admit("a", "10.0.0.1", now).admitted);  // a quiet minute forgot them
}

BOOST_AUTO_TEST_CASE(clients_have_a_budget_of_their_own) {
    login_brake brake({.account_free_failures = 100, .client_free_failures = 2});
    const std::int64_t now = 0;
    BOOST_TEST(fail_once(brake, now, "a", "10.0.0.1"));
    BOOST_TEST(fail_once(brake, now, "b", "10.0.0.1"));
    BOOST_TEST(!brake.admit("c", "10.0.0.1", now).admitted);
    BOOST_TEST(brake.admit("c", "10.0.0.2", now).admitted);
}

BOOST_AUTO_TEST_SUITE_END()
