// Who may write under each policy: anonymous callers, customers, admins, and a user's own account.
#include <boost/test/unit_test.hpp>

#include "core/write_policy.hpp"

using namespace storefront::core;

namespace {

const actor anonymous{};
const actor customer{7, "customer"};
const actor admin{1, "admin"};

errc code(const result<void>& r) {
    return r ? errc::ok : static_cast<errc>(r.error().value());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_policy_rules)

BOOST_AUTO_TEST_CASE(policy_names) {
    BOOST_TEST((parse_write_policy("open") == write_policy::open));
    BOOST_TEST((parse_write_policy("roles") == write_policy::roles));
    BOOST_TEST(!parse_write_policy("Roles"));
    BOOST_TEST(!parse_write_policy(""));
}

BOOST_AUTO_TEST_CASE(open_lets_anyone_write) {
    BOOST_TEST((code(may_write_catalogue(write_policy::open, anonymous)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::open, anonymous, 5, true)) == errc::ok));
    BOOST_TEST((code(may_register(write_policy::open, anonymous, "admin")) == errc::ok));
}

BOOST_AUTO_TEST_CASE(roles_catalogue_writes_need_an_admin) {
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, anonymous)) == errc::invalid_token));
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, customer)) == errc::forbidden));
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, admin)) == errc::ok));
}

BOOST_AUTO_TEST_CASE(roles_users_change_only_themselves) {
    BOOST_TEST((code(may_change_user(write_policy::roles, anonymous, 7, false)) == errc::invalid_token));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 7, false)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 8, false)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 7, true)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::roles, admin, 8, true)) == errc::ok));
}

BOOST_AUTO_TEST_CASE(roles_admin_accounts_need_an_admin) {
    BOOST_TEST((code(may_register(write_policy::roles, anonymous, "customer")) == errc::ok));
    BOOST_TEST((code(may_register(write_policy::roles, anonymous, "admin")) == errc::invalid_token));
    BOOST_TEST((code(may_register(write_policy::roles, customer, "admin")) == errc::forbidden));
    BOOST_TEST((code(may_register(write_policy::roles, admin, "admin")) == errc::ok));
}

BOOST_AUTO_TEST_SUITE_END()
