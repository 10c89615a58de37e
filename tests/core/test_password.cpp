// Tests for Argon2id hashing and verification (each hash costs ~19 MiB and tens of milliseconds).
#include <stdexcept>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/password.hpp"

using namespace storefront::core;

namespace {

struct hashed_fixture {
    const std::string password = "changeme";
    const std::string hash = hash_password(password);
};

}  // namespace

BOOST_AUTO_TEST_SUITE(password)

BOOST_FIXTURE_TEST_CASE(hash_is_argon2id_phc_string, hashed_fixture) {
    BOOST_TEST(hash != password);
    BOOST_TEST(hash.rfind("$argon2id$", 0) == 0u);
    BOOST_TEST(hash.find(password) == std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(verify_accepts_right_and_refuses_wrong, hashed_fixture) {
    BOOST_TEST(verify_password(password, hash));
    BOOST_TEST(!verify_password("changeMe", hash));
    BOOST_TEST(!verify_password("", hash));
    BOOST_TEST(!verify_password(password + " ", hash));
}

BOOST_FIXTURE_TEST_CASE(same_password_hashes_differ, hashed_fixture) {
    const std::string other = hash_password(password);
    BOOST_TEST(other != hash);  // fresh salt each time
    BOOST_TEST(verify_password(password, other));
}

BOOST_FIXTURE_TEST_CASE(malformed_hashes_are_false, hashed_fixture) {
    const std::string malformed[] = {
        "",
        "changeme",
        "$argon2id$",
        "$argon2id$v=19$m=19456,t=2,p=1$",
        hash.substr(0, hash.size() - 5),
        hash + "AAAA",
        std::string(1000, 'x'),
        "$2b$12$abcdefghijklmnopqrstuuN1DPo1FVK9iHQ2bTVRnlNmXmzPMoCWW",  // bcrypt, not supported
        std::string(hash).insert(5, 1, '\0'),
    };
    for (const auto& m : malformed) {
        BOOST_TEST_CONTEXT("hash: \"" << m << "\"") {
            BOOST_TEST(!verify_password(password, m));
        }
    }
}

BOOST_AUTO_TEST_CASE(empty_password_round_trips) {
    const std::string hash = hash_password("");
    BOOST_TEST(verify_password("", hash));
    BOOST_TEST(!verify_password("x", hash));
}

BOOST_FIXTURE_TEST_CASE(oversized_passwords_are_refused, hashed_fixture) {
    const std::string huge(4097, 'p');
    BOOST_CHECK_THROW(static_cast<void>(hash_password(huge)), std::invalid_argument);
    BOOST_TEST(!verify_password(huge, hash));
    const std::string limit(4096, 'p');
    BOOST_TEST(verify_password(limit, hash_password(limit)));
}

BOOST_AUTO_TEST_CASE(burn_verify_time_does_not_throw) {
    BOOST_CHECK_NO_THROW(burn_verify_time("anything"));
    BOOST_CHECK_NO_THROW(burn_verify_time(std::string(5000, 'p')));
}

BOOST_AUTO_TEST_SUITE_END()
