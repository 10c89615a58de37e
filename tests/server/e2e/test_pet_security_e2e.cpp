// End to end over HTTP: /api/v3 security. Every protected operation without credentials (401 with
// WWW-Authenticate), with a token lacking the scope (403), with a store token, an expired or foreign token
// (401) and with the right credential (2xx); the OAuth token endpoint (RFC 6749 §4.4 and §5.2); and
// tokens of one surface refused by the other.

#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/auth_tokens.hpp"
#include "pet_test_helpers.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;
using namespace storefront::test::pet;

namespace {

enum class needs { api_key, api_key_or_read, write };

struct protected_op {
    std::string method;
    std::string target;
    std::string body;
    std::string content_type;
    needs access;
    unsigned success;
};

// In this order, so each success leaves what the next one needs (pet 6001 is this test's own).
std::vector<protected_op> protected_ops() {
    return {
        {"GET", "/api/v3/store/inventory", "", "", needs::api_key, 200},
        {"GET", "/api/v3/pet/1", "", "", needs::api_key_or_read, 200},
        {"POST",
         "/api/v3/pet",
         R"({"id":6001,"name":"guarded","photoUrls":[]})",
         "application/json",
         needs::write,
         200},
        {"PUT",
         "/api/v3/pet",
         R"({"id":6001,"name":"guarded 2","photoUrls":[]})",
         "application/json",
         needs::write,
         200},
        {"POST", "/api/v3/pet/6001?status=sold", "", "", needs::write, 200},
        {"POST", "/api/v3/pet/6001/uploadImage", "bytes", "application/octet-stream", needs::write, 200},
        {"DELETE", "/api/v3/pet/6001", "", "", needs::write, 200},
    };
}

std::string store_access_token() {
    const auto reply = post_json(
        shared_server().port(), "/api/v1/auth/login", R"({"email":"john@mail.com","password":"changeme"})"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return std::string(reply.json().at("access_token").as_string());
}

http_reply run(const protected_op& op, const std::string& bearer, const std::string& api_key) {
    return call(op.method, op.target, bearer, api_key, op.body, op.content_type);
}

void check_401(const http_reply& reply, const protected_op& op) {
    const std::string message = error_message(reply, 401);
    BOOST_TEST(!message.empty());
    const std::string challenge = reply.header("www-authenticate");
    BOOST_TEST(!challenge.empty());
    if (op.access != needs::write) {
        BOOST_TEST(
            challenge.find(R"(ApiKey realm="storefront-pet", header="api_key")") != std::string::npos,
            challenge
        );
    }
    if (op.access != needs::api_key) {
        BOOST_TEST(challenge.find(R"(Bearer realm="storefront-pet")") != std::string::npos, challenge);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pet_security)

BOOST_AUTO_TEST_CASE(every_protected_operation_by_credential) {
    const std::string full = token();
    const std::string read_only = token("reader-client", "reader-secret");
    const std::string write_only = token("writer-client", "writer-secret");
    const std::string store_token = store_access_token();
    const std::string expired =
        forge(test_pet_secret, core::pet_audience, "petstore-client", false, "read:pets write:pets", -10);
    const std::string store_audience =
        forge(test_pet_secret, core::store_audience, "petstore-client", false, "read:pets write:pets", 3600);
    const std::string other_secret = forge(
        "another-secret-0123456789abcdef",
        core::pet_audience,
        "petstore-client",
        false,
        "read:pets write:pets",
        3600
    );
    std::string tampered = full;
    tampered[tampered.size() - 3] = tampered[tampered.size() - 3] == 'A' ? 'B' : 'A';

    for (const auto& op : protected_ops()) {
        BOOST_TEST_CONTEXT(op.method << " " << op.target) {
            check_401(run(op, "", ""), op);
            check_401(run(op, "", "wrong-key"), op);
            for (const auto& bad :
                 {store_token, expired, store_audience, other_secret, tampered, std::string("garbage")}) {
                const auto reply = run(op, bad, "");
                check_401(reply, op);
                if (op.access != needs::api_key) {
                    BOOST_TEST(
                        reply.header("www-authenticate").find(R"(error="invalid_token")") != std::string::npos
                    );
                }
            }
            if (op.access == needs::api_key) {
                check_401(run(op, full, ""), op);  // a bearer token is not an API key
            } else {
                const std::string& lacking = op.access == needs::write ? read_only : write_only;
                const auto forbidden = run(op, lacking, "");
                const std::string scope = op.access == needs::write ? "write:pets" : "read:pets";
                BOOST_TEST(error_message(forbidden, 403) == "The bearer token lacks the " + scope + " scope");
                BOOST_TEST(
                    forbidden.header("www-authenticate") ==
                    R"(Bearer realm="storefront-pet", error="insufficient_scope", scope=")" + scope + "\""
                );
            }
            if (op.access == needs::write) {
                BOOST_TEST(run(op, "", "special-key").status == 401u);  // API keys do not authorise writes
            }
            // The right credential last.
            const auto ok = op.access == needs::api_key ? run(op, "", "special-key")
                            : op.access == needs::write ? run(op, full, "")
                                                        : run(op, read_only, "");
            BOOST_TEST(ok.status == op.success, ok.body);
        }
    }
}

BOOST_AUTO_TEST_CASE(get_pet_accepts_either_credential) {
    BOOST_TEST(call("GET", "/api/v3/pet/2", "", "special-key").status == 200u);
    BOOST_TEST(call("GET", "/api/v3/pet/2", "", "second-test-key").status == 200u);
    BOOST_TEST(call("GET", "/api/v3/pet/2", token()).status == 200u);
    BOOST_TEST(call("GET", "/api/v3/pet/2", token("reader-client", "reader-secret")).status == 200u);
    BOOST_TEST(
        call("GET", "/api/v3/pet/2", "garbage", "special-key").status == 200u
    );  // one alternative suffices
    BOOST_TEST(call("GET", "/api/v3/pet/2", "", "special-keyx").status == 401u);
    BOOST_TEST(
        error_message(call("GET", "/api/v3/pet/2"), 401) ==
        "Missing or invalid credentials: send the api_key header or a bearer token with scope read:pets"
    );
    BOOST_TEST(
        error_message(call("DELETE", "/api/v3/pet/2", "garbage"), 401) ==
        "Invalid or expired bearer token: send a bearer token with scope write:pets"
    );
    BOOST_TEST(call("GET", "/api/v3/pet/2", "", "SPECIAL-KEY").status == 401u);
    // Bearer scheme is case-insensitive; a Basic header is not a bearer token.
    const auto lower = send_request(
        shared_server().port(),
        {.method = "GET", .target = "/api/v3/pet/2", .headers = {{"Authorization", "bearer " + token()}}}
    );
    BOOST_TEST(lower.status == 200u);
    const auto basic_header = send_request(
        shared_server().port(),
        {.method = "GET",
         .target = "/api/v3/pet/2",
         .headers = {{"Authorization", basic("petstore-client", "petstore-secret")}}}
    );
    BOOST_TEST(basic_header.status == 401u);
    // Public operations need nothing.
    BOOST_TEST(get(shared_server().port(), "/api/v3/pet/findByStatus").status == 200u);
    BOOST_TEST(get(shared_server().port(), "/api/v3/user/logout").status == 200u);
}

BOOST_AUTO_TEST_CASE(token_endpoint_client_credentials) {
    const auto port = shared_server().port();
    const auto granted = request_token(port, "petstore-client", "petstore-secret", "");
    BOOST_TEST_REQUIRE(granted.status == 200u, granted.body);
    const auto doc = granted.json();
    BOOST_TEST(doc.at("token_type").as_string() == "Bearer");
    BOOST_TEST(doc.at("expires_in").as_int64() == 3600);
    BOOST_TEST(doc.at("scope").as_string() == "read:pets write:pets");
    BOOST_TEST(
        std::count(
            doc.at("access_token").as_string().begin(), doc.at("access_token").as_string().end(), '.'
        ) == 2
    );
    BOOST_TEST(granted.header("cache-control") == "no-store");
    BOOST_TEST(granted.header("pragma") == "no-cache");

    const auto narrowed = request_token(port, "petstore-client", "petstore-secret", "read:pets");
    BOOST_TEST(narrowed.json().at("scope").as_string() == "read:pets");
    const std::string read_token(narrowed.json().at("access_token").as_string());
    BOOST_TEST(call("POST", "/api/v3/pet/1?status=available", read_token).status == 403u);
    const auto both = request_token(port, "petstore-client", "petstore-secret", "write:pets+read:pets");
    BOOST_TEST(both.json().at("scope").as_string() == "write:pets read:pets");

    struct failure {
        std::string name;
        http_reply reply;
        unsigned status;
        std::string error;
    };
    const auto form = [&](const std::string& authorization, const std::string& body, const std::string& type
                      ) {
        http_request_spec spec{
            .method = "POST", .target = "/api/v3/oauth/token", .body = body, .content_type = type};
        if (!authorization.empty()) {
            spec.headers.emplace_back("Authorization", authorization);
        }
        return send_request(port, spec);
    };
    const std::string good = basic("petstore-client", "petstore-secret");
    const std::string form_type = "application/x-www-form-urlencoded";
    const std::vector<failure> failures{
        {"wrong secret", request_token(port, "petstore-client", "wrong", ""), 401, "invalid_client"},
        {"unknown client", request_token(port, "nobody", "petstore-secret", ""), 401, "invalid_client"},
        {"other client's secret",
         request_token(port, "petstore-client", "reader-secret", ""),
         401,
         "invalid_client"},
        {"no authorization", form("", "grant_type=client_credentials", form_type), 401, "invalid_client"},
        {"bearer instead of basic",
         form("Bearer x", "grant_type=client_credentials", form_type),
         401,
         "invalid_client"},
        {"broken base64",
         form("Basic !!!", "grant_type=client_credentials", form_type),
         401,
         "invalid_client"},
        {"unknown scope",
         request_token(port, "petstore-client", "petstore-secret", "admin"),
         400,
         "invalid_scope"},
        {"scope beyond the client",
         request_token(port, "reader-client", "reader-secret", "write:pets"),
         400,
         "invalid_scope"},
        {"empty scope", form(good, "grant_type=client_credentials&scope=", form_type), 400, "invalid_scope"},
        {"password grant",
         form(good, "grant_type=password&username=a&password=b", form_type),
         400,
         "unsupported_grant_type"},
        {"no grant type", form(good, "scope=read:pets", form_type), 400, "invalid_request"},
        {"repeated grant type",
         form(good, "grant_type=client_credentials&grant_type=client_credentials", form_type),
         400,
         "invalid_request"},
        {"json body",
         form(good, R"({"grant_type":"client_credentials"})", "application/json"),
         400,
         "invalid_request"},
    };
    for (const auto& f : failures) {
        BOOST_TEST_CONTEXT(f.name) {
            BOOST_TEST(f.reply.status == f.status, f.reply.body);
            const auto body = f.reply.json();
            BOOST_TEST(body.at("error").as_string() == f.error);
            BOOST_TEST(!body.at("error_description").as_string().empty());
            BOOST_TEST(f.reply.header("cache-control") == "no-store");
            if (f.status == 401) {
                BOOST_TEST(f.reply.header("www-authenticate") == R"(Basic realm="storefront-pet")");
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(tokens_do_not_cross_surfaces) {
    const auto port = shared_server().port();
    // A pet token is no store access token.
    const auto profile = send_request(
        port,
        {.method = "GET",
         .target = "/api/v1/auth/profile",
         .headers = {{"Authorization", "Bearer " + token()}}}
    );
    BOOST_TEST(profile.status == 401u);
    BOOST_TEST(profile.body == R"({"message":"Unauthorized","statusCode":401})");
    // Even signed with the store's own secret, the pet audience is refused there (the aud check, not the
    // key). Both forged tokens name a real login of user 1, as store access tokens must (issue 45).
    const auto login =
        post_json(port, "/api/v1/auth/login", R"({"email":"john@mail.com","password":"changeme"})");
    BOOST_TEST_REQUIRE(login.status == 201u);
    const auto real = core::jwt_codec(test_access_secret)
                          .verify(
                              std::string(login.json().at("access_token").as_string()),
                              core::unix_now(),
                              {"access", core::store_audience}
                          );
    BOOST_TEST_REQUIRE(real.has_value());
    const std::string pet_audience_store_key =
        forge(test_access_secret, core::pet_audience, "1", true, "read:pets write:pets", 3600, real->session);
    const auto forged = send_request(
        port,
        {.method = "GET",
         .target = "/api/v1/auth/profile",
         .headers = {{"Authorization", "Bearer " + pet_audience_store_key}}}
    );
    BOOST_TEST(forged.status == 401u);
    const std::string store_audience_store_key =
        forge(test_access_secret, core::store_audience, "1", true, "", 3600, real->session);
    const auto control = send_request(
        port,
        {.method = "GET",
         .target = "/api/v1/auth/profile",
         .headers = {{"Authorization", "Bearer " + store_audience_store_key}}}
    );
    BOOST_TEST(control.status == 200u);
    // And the other way round: a pet-keyed token for the store audience is refused on /api/v3.
    BOOST_TEST(
        call(
            "GET",
            "/api/v3/pet/1",
            forge(test_pet_secret, core::store_audience, "petstore-client", false, "read:pets", 3600)
        )
            .status == 401u
    );
    BOOST_TEST(
        call(
            "GET",
            "/api/v3/pet/1",
            forge(test_pet_secret, core::pet_audience, "petstore-client", false, "read:pets", 3600)
        )
            .status == 200u
    );
}

BOOST_AUTO_TEST_CASE(routing_extras_on_the_pet_surface) {
    const auto port = shared_server().port();
    const auto preflight = send_request(port, {.method = "OPTIONS", .target = "/api/v3/pet/1"});
    BOOST_TEST(preflight.status == 204u);
    BOOST_TEST(preflight.header("allow") == "DELETE, GET, HEAD, POST, OPTIONS");
    BOOST_TEST(send_request(port, {.method = "PATCH", .target = "/api/v3/pet"}).status == 405u);
    BOOST_TEST(get(port, "/api/v3/nothing").status == 404u);
    const auto head = send_request(port, {.method = "HEAD", .target = "/api/v3/pet/findByStatus"});
    BOOST_TEST(head.status == 200u);
    BOOST_TEST(head.body.empty());
}

BOOST_AUTO_TEST_SUITE_END()
