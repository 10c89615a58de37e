// Pet surface credentials: the --pet-clients syntax, scope lists, HTTP Basic decoding and pet tokens
// (scope claim, audience and type kept apart from store tokens).
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/auth_tokens.hpp"
#include "core/pet_auth.hpp"

using namespace storefront::core;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace pet_auth_file {
namespace {

constexpr std::int64_t now = 1'700'000'000;
const pet_token_settings settings{"pet-secret-0123456789abcdef", std::chrono::seconds(3600)};

}  // namespace

BOOST_AUTO_TEST_SUITE(pet_auth)

BOOST_AUTO_TEST_CASE(client_list_syntax) {
    const auto clients =
        parse_pet_clients("petstore-client:petstore-secret:read:pets write:pets, r:s:read:pets");
    BOOST_TEST_REQUIRE(clients.has_value());
    BOOST_TEST_REQUIRE(clients->size() == 2u);
    BOOST_TEST(clients->at(0).id == "petstore-client");
    BOOST_TEST(clients->at(0).secret == "petstore-secret");
    BOOST_TEST((clients->at(0).scopes == std::vector<std::string>{"read:pets", "write:pets"}));
    BOOST_TEST(clients->at(1).id == "r");
    BOOST_TEST((clients->at(1).scopes == std::vector<std::string>{"read:pets"}));
    BOOST_TEST(parse_pet_clients("")->empty());
    for (const std::string bad :
         {"id",
          "id:secret",
          ":s:read:pets",
          "id::read:pets",
          "id:s:",
          "id:s:admin",
          "a:s:read:pets,a:t:write:pets"}) {
        BOOST_TEST_CONTEXT(bad) {
            const auto parsed = parse_pet_clients(bad);
            BOOST_TEST_REQUIRE(!parsed);
            BOOST_TEST(!parsed.error().messages.at(0).empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(scope_lists) {
    BOOST_TEST(
        (split_scopes(" read:pets  write:pets read:pets ") ==
         std::vector<std::string>{"read:pets", "write:pets"})
    );
    BOOST_TEST(split_scopes("").empty());
    BOOST_TEST(has_scope("read:pets write:pets", "write:pets"));
    BOOST_TEST(!has_scope("read:pets", "write:pets"));
    BOOST_TEST(!has_scope("read:petsx", "read:pets"));
}

BOOST_AUTO_TEST_CASE(basic_authorization) {
    const auto c = parse_basic_authorization("Basic cGV0c3RvcmUtY2xpZW50OnBldHN0b3JlLXNlY3JldA==");
    BOOST_TEST_REQUIRE(c.has_value());
    BOOST_TEST(c->id == "petstore-client");
    BOOST_TEST(c->secret == "petstore-secret");
    const auto lower = parse_basic_authorization("basic YTpiOmM=");  // "a:b:c": the secret may hold ':'
    BOOST_TEST_REQUIRE(lower.has_value());
    BOOST_TEST(lower->secret == "b:c");
    const auto encoded = parse_basic_authorization("Basic YSUyMGI6YytkJTNB");  // "a%20b:c+d%3A"
    BOOST_TEST_REQUIRE(encoded.has_value());
    BOOST_TEST(encoded->id == "a b");
    BOOST_TEST(encoded->secret == "c d:");
    for (const std::string bad :
         {"", "Basic", "Basic ", "Bearer YTpi", "Basic !!!!", "Basic YWJj", "Basic JXp6OmI="}) {
        BOOST_TEST(!parse_basic_authorization(bad), bad);
    }
}

BOOST_AUTO_TEST_CASE(pet_tokens_round_trip_and_refusals) {
    const pet_tokens tokens(settings);
    const std::string token = tokens.issue("petstore-client", "read:pets write:pets", now);
    const auto grant = tokens.verify(token, now + 10);
    BOOST_TEST_REQUIRE(grant.has_value());
    BOOST_TEST(grant->client_id == "petstore-client");
    BOOST_TEST(grant->scope == "read:pets write:pets");
    BOOST_TEST((tokens.verify(token, now + 3600).error() == errc::invalid_token));  // expired
    BOOST_TEST(!pet_tokens({"another-secret-0123456789", std::chrono::seconds(3600)}).verify(token, now));

    // A token with the store audience (or a numeric store subject) is refused, even under the pet secret.
    token_claims store_like;
    store_like.subject = "1";
    store_like.type = "access";
    store_like.audience = std::string(store_audience);
    store_like.expires_at = now + 100;
    BOOST_TEST(!tokens.verify(jwt_codec(settings.secret).sign(store_like), now));
    store_like.audience = std::string(pet_audience);
    BOOST_TEST(!tokens.verify(jwt_codec(settings.secret).sign(store_like), now));  // numeric sub
    store_like.subject_is_number = false;
    store_like.type = "refresh";
    BOOST_TEST(!tokens.verify(jwt_codec(settings.secret).sign(store_like), now));

    // And a pet token is no store access token.
    const auth_tokens store(
        {settings.secret, "refresh-secret-0123456789", std::chrono::seconds(60), std::chrono::seconds(60)}
    );
    BOOST_TEST(!store.verify_access(token, now));
    BOOST_CHECK_THROW(pet_tokens({"", std::chrono::seconds(1)}), std::invalid_argument);
    BOOST_CHECK_THROW(pet_tokens({"x", std::chrono::seconds(0)}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(scope_grants) {
    const std::vector<std::string> client{"read:pets", "write:pets"};
    BOOST_TEST(grant_scopes(std::nullopt, client).value() == client);
    BOOST_TEST(
        grant_scopes(std::string("read:pets"), client).value() == std::vector<std::string>{"read:pets"}
    );
    BOOST_TEST(!grant_scopes(std::string("admin"), client));
    BOOST_TEST(!grant_scopes(std::string("read:pets admin"), client));
    BOOST_TEST(!grant_scopes(std::string(""), client));
    BOOST_TEST(!grant_scopes(std::nullopt, {}));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace pet_auth_file
