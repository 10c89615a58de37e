// The login gate in front of the session store: a live answer and the caller's role are remembered for
// `live_for`, a revocation made here is known at once, and after `live_for` both are asked again.

#include <thread>

#include <boost/test/unit_test.hpp>

#include "server/services/session_gate.hpp"
#include "storage/factory.hpp"

using storefront::core::actor;
using storefront::server::session_gate;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t now = 1'800'000'000;
constexpr std::int64_t alice = 7;

struct gate_fixture {
    std::unique_ptr<storefront::storage::session_store> store =
        storefront::storage::make_session_store(storefront::storage::storage_config{});
    session_gate gate{*store, 200ms};

    gate_fixture() { BOOST_TEST_REQUIRE(store->start("family-a", alice, now + 3600, now).has_value()); }
    // What store_caller does on a miss: the liveness from storage, then the user's role.
    void check_and_read_role(const std::string& role) {
        BOOST_TEST_REQUIRE(gate.check("family-a", alice, now).value());
        gate.remember_caller("family-a", actor{alice, role});
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(session_gate_unit)

BOOST_FIXTURE_TEST_CASE(the_role_is_remembered_only_with_a_live_answer, gate_fixture) {
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());
    gate.remember_caller("family-a", actor{alice, "admin"});  // no live answer yet: not kept
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());
    check_and_read_role("admin");
    const auto known = gate.known_caller("family-a", alice);
    BOOST_TEST_REQUIRE(known.has_value());
    BOOST_TEST(known->role == "admin");
    BOOST_TEST(*known->user_id == alice);
    BOOST_TEST(!gate.known_caller("family-a", alice + 1).has_value());  // another user's token, same id
}

BOOST_FIXTURE_TEST_CASE(a_revocation_here_forgets_the_caller_at_once, gate_fixture) {
    check_and_read_role("admin");
    BOOST_TEST(gate.revoke_user(alice).value() == 1);
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());
    BOOST_TEST((gate.cached("family-a", alice) == std::optional<bool>(false)));
    gate.remember_caller("family-a", actor{alice, "admin"});  // a read that raced the revocation
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());
}

BOOST_FIXTURE_TEST_CASE(after_live_for_the_role_is_read_again_with_the_login, gate_fixture) {
    check_and_read_role("admin");
    std::this_thread::sleep_for(250ms);
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());
    BOOST_TEST_REQUIRE(gate.check("family-a", alice, now).value());
    BOOST_TEST(!gate.known_caller("family-a", alice).has_value());  // live again, role not read yet
    gate.remember_caller("family-a", actor{alice, "customer"});
    BOOST_TEST(gate.known_caller("family-a", alice)->role == "customer");
}

BOOST_AUTO_TEST_SUITE_END()
