// End to end over HTTP: login, refresh and profile with real tokens, and every way a token can be bad.

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/auth_tokens.hpp"
#include "core/jwt.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace auth_e2e_file {
namespace {

struct tokens {
    std::string access;
    std::string refresh;
};

tokens login(std::uint16_t port, const std::string& email, const std::string& password) {
    json::object body{{"email", email}, {"password", password}};
    const auto reply = post_json(port, "/api/v1/auth/login", json::serialize(body));
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    const auto doc = reply.json();
    return {
        std::string(doc.at("access_token").as_string()), std::string(doc.at("refresh_token").as_string())};
}

http_reply profile(std::uint16_t port, const std::string& authorization) {
    http_request_spec spec{.method = "GET", .target = "/api/v1/auth/profile"};
    if (!authorization.empty()) {
        spec.headers.emplace_back("Authorization", authorization);
    }
    return send_request(port, spec);
}

void check_unauthorized(const http_reply& reply) {
    BOOST_TEST(reply.status == 401u);
    BOOST_TEST(reply.body == R"({"message":"Unauthorized","statusCode":401})");
}

void check_invalid_refresh(const http_reply& reply) {
    BOOST_TEST(reply.status == 401u);
    BOOST_TEST(reply.body == R"({"message":"Invalid","error":"Unauthorized","statusCode":401})");
}

std::string forge(const char* secret, const char* type, std::int64_t sub, std::int64_t exp_offset) {
    core::token_claims claims;
    claims.subject = std::to_string(sub);
    claims.type = type;
    claims.audience = std::string(core::store_audience);
    claims.issued_at = core::unix_now() - 100;
    claims.expires_at = core::unix_now() + exp_offset;
    return core::jwt_codec(secret).sign(claims);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_flow)

BOOST_AUTO_TEST_CASE(login_profile_refresh_round_trip) {
    const auto port = shared_server().port();
    const auto pair = login(port, "john@mail.com", "changeme");
    BOOST_TEST(std::count(pair.access.begin(), pair.access.end(), '.') == 2);
    BOOST_TEST(pair.access != pair.refresh);

    const auto me = profile(port, "Bearer " + pair.access);
    BOOST_TEST(me.status == 200u);
    BOOST_TEST(me.json().at("id").as_int64() == 1);
    BOOST_TEST(me.json().at("email").as_string() == "john@mail.com");
    BOOST_TEST(me.body.find("password") == std::string::npos);
    BOOST_TEST(profile(port, "bearer " + pair.access).status == 200u);  // scheme is case-insensitive

    const auto refreshed =
        post_json(port, "/api/v1/auth/refresh-token", R"({"refreshToken":")" + pair.refresh + "\"}");
    BOOST_TEST(refreshed.status == 201u);
    const auto new_access = std::string(refreshed.json().at("access_token").as_string());
    BOOST_TEST(profile(port, "Bearer " + new_access).json().at("id").as_int64() == 1);

    // Form bodies and case-insensitive e-mails work too.
    const auto form = send_request(
        port,
        {.method = "POST",
         .target = "/api/v1/auth/login",
         .body = "email=Maria%40Mail.com&password=12345",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST(form.status == 201u);
    const auto maria = profile(port, "Bearer " + std::string(form.json().at("access_token").as_string()));
    BOOST_TEST(maria.json().at("name").as_string() == "Maria");
}

BOOST_AUTO_TEST_CASE(wrong_or_missing_credentials_are_401) {
    const auto port = shared_server().port();
    const std::vector<std::string> bodies{
        R"({"email":"john@mail.com","password":"wrong"})",
        R"({"email":"nobody@mail.com","password":"changeme"})",
        R"({"email":"john@mail.com"})",
        R"({"password":"changeme"})",
        R"({})",
        R"({"email":"john@mail.com","password":123})",
        R"({"email":"not an email","password":"changeme"})",
    };
    for (const auto& body : bodies) {
        BOOST_TEST_CONTEXT(body) {
            check_unauthorized(post_json(port, "/api/v1/auth/login", body));
        }
    }
    const auto malformed = post_json(port, "/api/v1/auth/login", R"({"email":)");
    BOOST_TEST(malformed.status == 400u);
    BOOST_TEST(malformed.json().at("error").as_string() == "Bad Request");
    const auto wrong_type = send_request(
        port, {.method = "POST", .target = "/api/v1/auth/login", .body = "x", .content_type = "text/plain"}
    );
    BOOST_TEST(wrong_type.status == 415u);
}

BOOST_AUTO_TEST_CASE(bad_access_tokens_are_401) {
    const auto port = shared_server().port();
    const auto pair = login(port, "admin@mail.com", "admin123");
    std::string tampered = pair.access;
    tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
    const std::vector<std::pair<std::string, std::string>> table{
        {"missing", ""},
        {"no scheme", pair.access},
        {"basic scheme", "Basic " + pair.access},
        {"empty bearer", "Bearer "},
        {"garbage", "Bearer not.a.jwt"},
        {"tampered", "Bearer " + tampered},
        {"refresh as access", "Bearer " + pair.refresh},
        {"expired", "Bearer " + forge(test_access_secret, "access", 3, -10)},
        {"other secret", "Bearer " + forge("some-other-secret-0123456789", "access", 3, 3600)},
        {"unknown user", "Bearer " + forge(test_access_secret, "access", 999, 3600)},
    };
    for (const auto& [name, header] : table) {
        BOOST_TEST_CONTEXT(name) {
            const auto reply = profile(port, header);
            check_unauthorized(reply);
            BOOST_TEST(!reply.header("www-authenticate").empty());
        }
    }
    // Well signed but outside any login (no refresh family that a logout or a password change could end):
    // refused since issue 45; a login's own token answers.
    check_unauthorized(profile(port, "Bearer " + forge(test_access_secret, "access", 3, 3600)));
    BOOST_TEST(profile(port, "Bearer " + pair.access).status == 200u);
}

BOOST_AUTO_TEST_CASE(bad_refresh_tokens_are_401_invalid) {
    const auto port = shared_server().port();
    const auto pair = login(port, "john@mail.com", "changeme");
    const std::string path = "/api/v1/auth/refresh-token";
    const auto body = [](const std::string& token) { return R"({"refreshToken":")" + token + "\"}"; };
    check_invalid_refresh(post_json(port, path, body(pair.access)));  // access used as refresh
    check_invalid_refresh(post_json(port, path, body("garbage")));
    check_invalid_refresh(post_json(port, path, body(forge(test_refresh_secret, "refresh", 1, -1))));
    check_invalid_refresh(post_json(port, path, body(forge(test_access_secret, "refresh", 1, 3600))));
    check_invalid_refresh(post_json(port, path, body(forge(test_refresh_secret, "refresh", 999, 3600))));
    // Well signed but from no login: it names no refresh family, so it refreshes nothing.
    check_invalid_refresh(post_json(port, path, body(forge(test_refresh_secret, "refresh", 1, 3600))));
    BOOST_TEST(post_json(port, path, body(pair.refresh)).status == 201u);  // the login's own token does

    const auto missing = post_json(port, path, "{}");
    BOOST_TEST(missing.status == 400u);
    BOOST_TEST(
        missing.json().at("message").as_array().at(0).as_string() == "refreshToken should not be empty"
    );
    const auto not_string = post_json(port, path, R"({"refreshToken":7})");
    BOOST_TEST(not_string.status == 400u);
    BOOST_TEST(
        not_string.json().at("message").as_array().at(0).as_string() == "refreshToken must be a string"
    );
}

// Each refresh spends its token and returns a new pair; replaying a spent token (as a thief would, or a
// client racing itself) revokes the whole login, so the thief's and the victim's tokens both stop working.
BOOST_AUTO_TEST_CASE(refresh_tokens_rotate_and_a_replay_revokes_the_login) {
    const auto port = shared_server().port();
    const std::string path = "/api/v1/auth/refresh-token";
    const auto refresh = [&](const std::string& token) {
        return post_json(port, path, R"({"refreshToken":")" + token + "\"}");
    };
    const auto first = login(port, "john@mail.com", "changeme");
    const auto second = refresh(first.refresh);
    BOOST_TEST_REQUIRE(second.status == 201u);
    const std::string second_refresh(second.json().at("refresh_token").as_string());
    BOOST_TEST(second_refresh != first.refresh);
    const auto third = refresh(second_refresh);
    BOOST_TEST_REQUIRE(third.status == 201u);
    const std::string third_refresh(third.json().at("refresh_token").as_string());

    check_invalid_refresh(refresh(first.refresh));  // replay of a spent token...
    check_invalid_refresh(refresh(third_refresh));  // ...revoked the newest one too
    // The access tokens of the revoked login end with it (issue 45: an access token lives only as long as
    // its login).
    check_unauthorized(profile(port, "Bearer " + std::string(third.json().at("access_token").as_string())));

    // Another login is another family, untouched by that revocation.
    const auto other = login(port, "john@mail.com", "changeme");
    BOOST_TEST(refresh(other.refresh).status == 201u);
}

BOOST_AUTO_TEST_CASE(logout_revokes_the_login_tokens_only) {
    const auto port = shared_server().port();
    const std::string path = "/api/v1/auth/refresh-token";
    const auto refresh = [&](const std::string& token) {
        return post_json(port, path, R"({"refreshToken":")" + token + "\"}");
    };
    const auto kept = login(port, "maria@mail.com", "12345");
    const auto leaving = login(port, "maria@mail.com", "12345");
    const auto logout = [&](const std::string& authorization) {
        return send_request(
            port,
            {.method = "POST", .target = "/api/v1/auth/logout", .headers = {{"Authorization", authorization}}}
        );
    };
    const auto out = logout("Bearer " + leaving.access);
    BOOST_TEST_REQUIRE(out.status == 200u, out.body);
    BOOST_TEST(out.json().at("loggedOut").as_bool());
    check_invalid_refresh(refresh(leaving.refresh));
    BOOST_TEST(refresh(kept.refresh).status == 201u);  // the other login (another device) stays
    // The logout ended that login's access token too (issue 45): it is refused like any invalid token.
    check_unauthorized(logout("Bearer " + leaving.access));
    check_unauthorized(profile(port, "Bearer " + leaving.access));
    BOOST_TEST(profile(port, "Bearer " + kept.access).status == 200u);
    check_unauthorized(logout(""));
    check_unauthorized(logout("Bearer " + leaving.refresh));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace auth_e2e_file
