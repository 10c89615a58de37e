#pragma once
// Helpers for the /api/v3 end-to-end tests: bearer tokens from the token endpoint, forged tokens, and
// requests with the pet surface's credentials.

#include <cstdint>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/jwt.hpp"
#include "core/pet_auth.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace storefront::test::pet {

inline std::string base64(std::string_view bytes) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                           (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                           static_cast<unsigned char>(bytes[i + 2]);
        out +=
            {alphabet[(n >> 18) & 63], alphabet[(n >> 12) & 63], alphabet[(n >> 6) & 63], alphabet[n & 63]};
    }
    if (bytes.size() - i == 1) {
        const unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
        out += {alphabet[(n >> 18) & 63], alphabet[(n >> 12) & 63], '=', '='};
    } else if (bytes.size() - i == 2) {
        const unsigned n =
            (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += {alphabet[(n >> 18) & 63], alphabet[(n >> 12) & 63], alphabet[(n >> 6) & 63], '='};
    }
    return out;
}

inline std::string basic(const std::string& id, const std::string& secret) {
    return "Basic " + base64(id + ":" + secret);
}

// POST /api/v3/oauth/token for a client; `scope` empty = no scope parameter.
inline http_reply request_token(
    std::uint16_t port, const std::string& id, const std::string& secret, const std::string& scope
) {
    std::string body = "grant_type=client_credentials";
    if (!scope.empty()) {
        body += "&scope=" + scope;  // callers pass '+' for spaces
    }
    return send_request(
        port,
        {.method = "POST",
         .target = "/api/v3/oauth/token",
         .body = body,
         .content_type = "application/x-www-form-urlencoded",
         .headers = {{"Authorization", basic(id, secret)}}}
    );
}

// A bearer token of the dev client with both scopes (or of another configured client).
inline std::string token(
    const std::string& id = "petstore-client",
    const std::string& secret = "petstore-secret",
    const std::string& scope = ""
) {
    const auto reply = request_token(shared_server().port(), id, secret, scope);
    BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
    return std::string(reply.json().at("access_token").as_string());
}

// A token signed with `secret` for the given audience/subject/scope, expiring `exp_offset` seconds from now.
inline std::string forge(
    const std::string& secret,
    std::string_view audience,
    const std::string& subject,
    bool numeric_subject,
    const std::string& scope,
    std::int64_t exp_offset,
    const std::string& session = {}  // a store login's refresh family ("sid"), which store tokens need
) {
    core::token_claims claims;
    claims.session = session;
    claims.subject = subject;
    claims.subject_is_number = numeric_subject;
    claims.type = "access";
    claims.audience = std::string(audience);
    claims.scope = scope;
    claims.issued_at = core::unix_now() - 7200;
    claims.expires_at = core::unix_now() + exp_offset;
    return core::jwt_codec(secret).sign(claims);
}

// A request with optional Authorization: Bearer and api_key headers.
inline http_reply call(
    const std::string& method,
    const std::string& target,
    const std::string& bearer = "",
    const std::string& api_key = "",
    const std::string& body = "",
    const std::string& content_type = ""
) {
    http_request_spec spec{.method = method, .target = target, .body = body, .content_type = content_type};
    if (!bearer.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + bearer);
    }
    if (!api_key.empty()) {
        spec.headers.emplace_back("api_key", api_key);
    }
    return send_request(shared_server().port(), spec);
}

inline http_reply call_json(
    const std::string& method,
    const std::string& target,
    const std::string& body,
    const std::string& bearer = ""
) {
    return call(method, target, bearer, "", body, "application/json");
}

// The petstore error body: {"code":<status>,"message":"..."}; checks status and shape, returns the message.
inline std::string error_message(const http_reply& reply, unsigned status) {
    BOOST_TEST(reply.status == status, reply.body);
    const auto doc = boost::json::parse(reply.body);
    BOOST_TEST_REQUIRE(doc.is_object(), reply.body);
    BOOST_TEST(doc.as_object().size() == 2u, reply.body);
    BOOST_TEST(doc.at("code").as_int64() == static_cast<std::int64_t>(status));
    return std::string(doc.at("message").as_string());
}

inline std::vector<std::int64_t> ids_up_to(const boost::json::value& array, std::int64_t max_id) {
    std::vector<std::int64_t> ids;
    for (const auto& item : array.as_array()) {
        const auto id = item.at("id").as_int64();
        if (id <= max_id) {
            ids.push_back(id);
        }
    }
    return ids;
}

}  // namespace storefront::test::pet
