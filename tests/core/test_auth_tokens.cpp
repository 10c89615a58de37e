// auth_tokens: the access/refresh pair round-trips, and neither kind of token passes as the other,
// nor a token for another audience, an expired one, or one whose "sub" is not a positive number.
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/auth_tokens.hpp"
#include "core/jwt.hpp"

using namespace storefront::core;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace auth_tokens_file {
namespace {

constexpr std::int64_t now = 1'700'000'000;

token_settings settings() {
    token_settings s;
    s.access_secret = "access secret for tests";
    s.refresh_secret = "refresh secret for tests";
    s.access_lifetime = std::chrono::hours(1);
    s.refresh_lifetime = std::chrono::hours(10);
    return s;
}

struct tokens_fixture {
    auth_tokens tokens{settings()};
    token_pair pair = tokens.issue(42, now);
};

token_claims claims_with(std::string subject, bool is_number, std::string type, std::string audience) {
    token_claims claims;
    claims.subject = std::move(subject);
    claims.subject_is_number = is_number;
    claims.type = std::move(type);
    claims.audience = std::move(audience);
    claims.issued_at = now;
    claims.expires_at = now + 60;
    return claims;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_tokens_suite)

BOOST_FIXTURE_TEST_CASE(round_trip, tokens_fixture) {
    const auto access = tokens.verify_access(pair.access_token, now);
    BOOST_TEST_REQUIRE(access.has_value());
    BOOST_TEST(*access == 42);
    const auto refresh = tokens.verify_refresh(pair.refresh_token, now);
    BOOST_TEST_REQUIRE(refresh.has_value());
    BOOST_TEST(refresh->user_id == 42);
    BOOST_TEST(refresh->session.id.empty());
    BOOST_TEST(pair.access_token != pair.refresh_token);
}

BOOST_FIXTURE_TEST_CASE(tokens_name_their_refresh_family_and_generation, tokens_fixture) {
    const token_pair in_family = tokens.issue(42, now, {"4f2a9c", 3});
    const auto refresh = tokens.verify_refresh(in_family.refresh_token, now);
    BOOST_TEST_REQUIRE(refresh.has_value());
    BOOST_TEST(refresh->user_id == 42);
    BOOST_TEST(refresh->session.id == "4f2a9c");
    BOOST_TEST(refresh->session.generation == 3);
    const auto access = tokens.verify_access_claims(in_family.access_token, now);
    BOOST_TEST_REQUIRE(access.has_value());
    BOOST_TEST(access->user_id == 42);
    BOOST_TEST(access->session == "4f2a9c");
    // A family or generation cannot be changed without the secret: a re-signed token with another
    // generation fails verification.
    token_claims forged = claims_with("42", true, "refresh", "storefront-store");
    forged.session = "4f2a9c";
    forged.generation = 4;
    BOOST_TEST(!tokens.verify_refresh(jwt_codec("some-other-secret-0123456789").sign(forged), now));
}

BOOST_FIXTURE_TEST_CASE(kinds_do_not_mix, tokens_fixture) {
    const auto refresh_as_access = tokens.verify_access(pair.refresh_token, now);
    BOOST_TEST_REQUIRE(!refresh_as_access.has_value());
    BOOST_TEST(refresh_as_access.error() == make_error_code(errc::invalid_token));
    const auto access_as_refresh = tokens.verify_refresh(pair.access_token, now);
    BOOST_TEST_REQUIRE(!access_as_refresh.has_value());
    BOOST_TEST(access_as_refresh.error() == make_error_code(errc::invalid_refresh_token));

    // Even signed with the right secret, the "typ" claim keeps the kinds apart.
    const jwt_codec access_codec{settings().access_secret};
    const jwt_codec refresh_codec{settings().refresh_secret};
    BOOST_TEST(
        !tokens.verify_access(access_codec.sign(claims_with("42", true, "refresh", "storefront-store")), now)
    );
    BOOST_TEST(
        !tokens.verify_refresh(refresh_codec.sign(claims_with("42", true, "access", "storefront-store")), now)
    );
}

BOOST_FIXTURE_TEST_CASE(expiry, tokens_fixture) {
    const std::int64_t access_end = now + 3600;
    const std::int64_t refresh_end = now + 36000;
    BOOST_TEST(tokens.verify_access(pair.access_token, access_end - 1).has_value());
    BOOST_TEST(!tokens.verify_access(pair.access_token, access_end).has_value());
    BOOST_TEST(tokens.verify_refresh(pair.refresh_token, refresh_end - 1).has_value());
    const auto expired = tokens.verify_refresh(pair.refresh_token, refresh_end);
    BOOST_TEST_REQUIRE(!expired.has_value());
    BOOST_TEST(expired.error() == make_error_code(errc::invalid_refresh_token));
}

BOOST_AUTO_TEST_CASE(refuses_foreign_or_ill_formed_subjects) {
    const auth_tokens tokens{settings()};
    const jwt_codec access_codec{settings().access_secret};
    const jwt_codec refresh_codec{settings().refresh_secret};
    struct row {
        std::string name;
        token_claims claims;
    };
    const row rows[] = {
        {"another audience", claims_with("42", true, "access", "pets-surface")},
        {"no audience", claims_with("42", true, "access", "")},
        {"sub as string", claims_with("42", false, "access", "storefront-store")},
        {"sub zero", claims_with("0", true, "access", "storefront-store")},
        {"sub negative", claims_with("-7", true, "access", "storefront-store")},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.name) {
            const auto access = tokens.verify_access(access_codec.sign(r.claims), now);
            BOOST_TEST_REQUIRE(!access.has_value());
            BOOST_TEST(access.error() == make_error_code(errc::invalid_token));
            token_claims refresh_claims = r.claims;
            refresh_claims.type = "refresh";
            const auto refresh = tokens.verify_refresh(refresh_codec.sign(refresh_claims), now);
            BOOST_TEST_REQUIRE(!refresh.has_value());
            BOOST_TEST(refresh.error() == make_error_code(errc::invalid_refresh_token));
        }
    }
    // The same claims with a good subject pass, so the rows above fail for the reason they name.
    BOOST_TEST(
        tokens.verify_access(access_codec.sign(claims_with("42", true, "access", "storefront-store")), now)
    );
}

BOOST_AUTO_TEST_CASE(constructor_and_issue_preconditions) {
    token_settings same = settings();
    same.refresh_secret = same.access_secret;
    BOOST_CHECK_THROW(auth_tokens{same}, std::invalid_argument);
    token_settings empty_access = settings();
    empty_access.access_secret.clear();
    BOOST_CHECK_THROW(auth_tokens{empty_access}, std::invalid_argument);
    token_settings empty_refresh = settings();
    empty_refresh.refresh_secret.clear();
    BOOST_CHECK_THROW(auth_tokens{empty_refresh}, std::invalid_argument);
    const auth_tokens tokens{settings()};
    BOOST_CHECK_THROW(static_cast<void>(tokens.issue(0, now)), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace auth_tokens_file
