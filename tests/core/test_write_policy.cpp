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

const account_change name_only{};
const account_change credentials{true, false};
const account_change role_change{false, true};

BOOST_AUTO_TEST_CASE(open_lets_anyone_write_but_not_take_over_accounts) {
    BOOST_TEST((code(may_write_catalogue(write_policy::open, anonymous)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::open, anonymous, 5, name_only)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::open, customer, 5, name_only)) == errc::ok));
    // Credentials: the owner or an admin only; a role: an admin only (issue 45).
    BOOST_TEST((code(may_change_user(write_policy::open, anonymous, 5, credentials)) == errc::invalid_token));
    BOOST_TEST((code(may_change_user(write_policy::open, customer, 5, credentials)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::open, customer, 7, credentials)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::open, admin, 5, credentials)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::open, anonymous, 5, role_change)) == errc::invalid_token));
    BOOST_TEST((code(may_change_user(write_policy::open, customer, 7, role_change)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::open, admin, 5, role_change)) == errc::ok));
    BOOST_TEST((code(may_register(write_policy::open, anonymous, "customer")) == errc::ok));
    BOOST_TEST((code(may_register(write_policy::open, anonymous, "admin")) == errc::invalid_token));
    BOOST_TEST((code(may_register(write_policy::open, customer, "admin")) == errc::forbidden));
    BOOST_TEST((code(may_register(write_policy::open, admin, "admin")) == errc::ok));
}

BOOST_AUTO_TEST_CASE(roles_catalogue_writes_need_an_admin) {
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, anonymous)) == errc::invalid_token));
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, customer)) == errc::forbidden));
    BOOST_TEST((code(may_write_catalogue(write_policy::roles, admin)) == errc::ok));
}

BOOST_AUTO_TEST_CASE(roles_users_change_only_themselves) {
    BOOST_TEST((code(may_change_user(write_policy::roles, anonymous, 7, name_only)) == errc::invalid_token));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 7, name_only)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 8, name_only)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 7, role_change)) == errc::forbidden));
    BOOST_TEST((code(may_change_user(write_policy::roles, admin, 8, role_change)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 7, credentials)) == errc::ok));
    BOOST_TEST((code(may_change_user(write_policy::roles, customer, 8, credentials)) == errc::forbidden));
}

BOOST_AUTO_TEST_CASE(roles_admin_accounts_need_an_admin) {
    BOOST_TEST((code(may_register(write_policy::roles, anonymous, "customer")) == errc::ok));
    BOOST_TEST((code(may_register(write_policy::roles, anonymous, "admin")) == errc::invalid_token));
    BOOST_TEST((code(may_register(write_policy::roles, customer, "admin")) == errc::forbidden));
    BOOST_TEST((code(may_register(write_policy::roles, admin, "admin")) == errc::ok));
}

BOOST_AUTO_TEST_SUITE_END()
