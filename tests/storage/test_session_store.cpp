// The session_store contract on every adapter: rotation one generation at a time, replay detection that
// revokes the family, expiry, revocation by the owner only, and racing refreshes of one token.

#include <atomic>
#include <thread>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "storage/factory.hpp"
#include "storage/session_store.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using namespace storefront::test;

namespace {

using session_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
constexpr std::int64_t now = 1'800'000'000;
constexpr std::int64_t later = now + 3600;

bool refused(const core::result<std::int64_t>& r) {
    return !r && r.error() == core::errc::invalid_refresh_token;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(session_store_contract)

BOOST_AUTO_TEST_CASE_TEMPLATE(rotation_moves_one_generation_at_a_time, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("family-a", 7, later, now).has_value());
    BOOST_TEST(sessions->rotate("family-a", 0, later, now).value() == 1);
    BOOST_TEST(sessions->rotate("family-a", 1, later, now).value() == 2);
    BOOST_TEST(refused(sessions->rotate("unknown", 0, later, now)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_replayed_generation_revokes_the_family, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("family-a", 7, later, now).has_value());
    BOOST_TEST_REQUIRE(sessions->start("family-b", 7, later, now).has_value());
    BOOST_TEST_REQUIRE(sessions->rotate("family-a", 0, later, now).has_value());
    BOOST_TEST(refused(sessions->rotate("family-a", 0, later, now)));      // generation 0 again: a replay
    BOOST_TEST(refused(sessions->rotate("family-a", 1, later, now)));      // the current one died with it
    BOOST_TEST(sessions->rotate("family-b", 0, later, now).value() == 1);  // other logins untouched
}

BOOST_AUTO_TEST_CASE_TEMPLATE(expired_families_refresh_nothing, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("short", 7, now + 10, now).has_value());
    BOOST_TEST(refused(sessions->rotate("short", 0, now + 20, now + 10)));
    // A rotation never extends the family: its end, set at the login, is absolute (issue 45).
    BOOST_TEST_REQUIRE(sessions->start("bounded", 7, now + 100, now).has_value());
    BOOST_TEST_REQUIRE(sessions->rotate("bounded", 0, now + 1000, now + 5).has_value());
    BOOST_TEST(sessions->rotate("bounded", 1, now + 2000, now + 50).value() == 2);
    BOOST_TEST(!sessions->is_live("bounded", 7, now + 100).value());
    BOOST_TEST(refused(sessions->rotate("bounded", 2, now + 3000, now + 100)));
    // An earlier end given by a rotation does shorten it.
    BOOST_TEST_REQUIRE(sessions->start("shortened", 7, now + 100, now).has_value());
    BOOST_TEST_REQUIRE(sessions->rotate("shortened", 0, now + 20, now + 5).has_value());
    BOOST_TEST(!sessions->is_live("shortened", 7, now + 20).value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_family_is_live_for_its_owner_until_revoked, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("family-a", 7, later, now).has_value());
    BOOST_TEST(sessions->is_live("family-a", 7, now).value());
    BOOST_TEST(!sessions->is_live("family-a", 8, now).value());  // not another user's
    BOOST_TEST(!sessions->is_live("unknown", 7, now).value());
    BOOST_TEST(!sessions->is_live("family-a", 7, later).value());  // expired
    BOOST_TEST(sessions->revoke("family-a", 7));
    BOOST_TEST(!sessions->is_live("family-a", 7, now).value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(revoking_a_user_ends_all_their_families_only, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("phone", 7, later, now).has_value());
    BOOST_TEST_REQUIRE(sessions->start("laptop", 7, later, now).has_value());
    BOOST_TEST_REQUIRE(sessions->start("other", 8, later, now).has_value());
    BOOST_TEST(sessions->revoke_user(7).value() == 2);
    BOOST_TEST(!sessions->is_live("phone", 7, now).value());
    BOOST_TEST(!sessions->is_live("laptop", 7, now).value());
    BOOST_TEST(refused(sessions->rotate("phone", 0, later, now)));
    BOOST_TEST(sessions->is_live("other", 8, now).value());
    BOOST_TEST(sessions->revoke_user(7).value() == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(only_the_owner_revokes_a_family, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("family-a", 7, later, now).has_value());
    BOOST_TEST(!sessions->revoke("family-a", 8));
    BOOST_TEST(sessions->rotate("family-a", 0, later, now).value() == 1);
    BOOST_TEST(sessions->revoke("family-a", 7));
    BOOST_TEST(!sessions->revoke("family-a", 7));
    BOOST_TEST(refused(sessions->rotate("family-a", 1, later, now)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(racing_refreshes_of_one_token_let_exactly_one_win, Backend, session_backends) {
    if (skipped<Backend>()) {
        return;
    }
    auto sessions = storage::make_session_store(Backend::config());
    BOOST_TEST_REQUIRE(sessions->start("contended", 7, later, now).has_value());
    std::atomic<int> won{0};
    std::vector<std::thread> racers;
    for (int i = 0; i < 8; ++i) {
        racers.emplace_back([&] {
            if (sessions->rotate("contended", 0, later, now)) {
                ++won;
            }
        });
    }
    for (auto& t : racers) {
        t.join();
    }
    BOOST_TEST(won.load() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
