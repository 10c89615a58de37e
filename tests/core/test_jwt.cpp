// jwt_codec: sign/verify round trips, and a table of forged, tampered, malformed and mismatched tokens
// that must all fail with errc::invalid_token. OpenSSL is used here only to forge signatures.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/test/unit_test.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "core/base64url.hpp"
#include "core/jwt.hpp"

using namespace storefront::core;

namespace {

constexpr std::string_view secret = "correct horse battery staple";
constexpr std::int64_t now = 1'700'000'000;
constexpr std::string_view good_header = R"({"alg":"HS256","typ":"JWT"})";
const token_expectation access_expectation{"access", "storefront-store"};

std::string mac(const EVP_MD* md, std::string_view key, std::string_view data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(
        md,
        key.data(),
        static_cast<int>(key.size()),
        reinterpret_cast<const unsigned char*>(data.data()),
        data.size(),
        out,
        &length
    );
    return {reinterpret_cast<const char*>(out), length};
}

// A token with arbitrary header and payload JSON, signed as the caller chooses.
std::string forge(
    std::string_view header,
    std::string_view payload,
    std::string_view key = secret,
    const EVP_MD* md = EVP_sha256()
) {
    const std::string signing_input = base64url_encode(header) + "." + base64url_encode(payload);
    return signing_input + "." + base64url_encode(mac(md, key, signing_input));
}

std::string payload_with(std::string_view members) {
    return "{" + std::string(members) + "}";
}

const std::string good_members = R"("sub":42,"typ":"access","aud":"storefront-store","iat":1699999000,)"
                                 R"("exp":1700000100)";

token_claims sample_claims() {
    token_claims claims;
    claims.subject = "42";
    claims.subject_is_number = true;
    claims.type = "access";
    claims.audience = "storefront-store";
    claims.issued_at = now - 1000;
    claims.expires_at = now + 100;
    return claims;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jwt)

BOOST_AUTO_TEST_CASE(round_trip) {
    const jwt_codec codec{std::string(secret)};
    token_claims claims = sample_claims();
    claims.scope = "orders:read orders:write";
    const std::string token = codec.sign(claims);
    BOOST_TEST(token.starts_with(base64url_encode(good_header) + "."));

    const auto verified = codec.verify(token, now, access_expectation);
    BOOST_TEST_REQUIRE(verified.has_value());
    BOOST_TEST(verified->subject == "42");
    BOOST_TEST(verified->subject_is_number);
    BOOST_TEST(verified->type == "access");
    BOOST_TEST(verified->audience == "storefront-store");
    BOOST_TEST(verified->scope == "orders:read orders:write");
    BOOST_TEST(verified->issued_at == now - 1000);
    BOOST_TEST(verified->expires_at == now + 100);
}

BOOST_AUTO_TEST_CASE(writes_claims_in_a_fixed_order) {
    const jwt_codec codec{std::string(secret)};
    const std::string token = codec.sign(sample_claims());
    const auto first_dot = token.find('.');
    const auto payload = base64url_decode(token.substr(first_dot + 1, token.rfind('.') - first_dot - 1));
    BOOST_TEST_REQUIRE(payload.has_value());
    BOOST_TEST(
        *payload == R"({"sub":42,"typ":"access","aud":"storefront-store","iat":1699999000,"exp":1700000100})"
    );
}

BOOST_AUTO_TEST_CASE(string_subject_and_no_audience) {
    const jwt_codec codec{std::string(secret)};
    token_claims claims = sample_claims();
    claims.subject = "user \"q\"\n\xc3\xa9";
    claims.subject_is_number = false;
    claims.audience.clear();
    const auto verified = codec.verify(codec.sign(claims), now, {"access", ""});
    BOOST_TEST_REQUIRE(verified.has_value());
    BOOST_TEST(verified->subject == claims.subject);
    BOOST_TEST(!verified->subject_is_number);
    BOOST_TEST(verified->audience.empty());
}

BOOST_AUTO_TEST_CASE(accepts_unknown_header_members_and_string_sub) {
    const jwt_codec codec{std::string(secret)};
    const std::string token = forge(R"({"typ":"JWT","kid":"k1","alg":"HS256"})", payload_with(good_members));
    BOOST_TEST(codec.verify(token, now, access_expectation).has_value());
    const std::string no_typ = forge(R"({"alg":"HS256"})", payload_with(good_members));
    BOOST_TEST(codec.verify(no_typ, now, access_expectation).has_value());
}

BOOST_AUTO_TEST_CASE(refuses_bad_tokens) {
    const jwt_codec codec{std::string(secret)};
    const std::string good = codec.sign(sample_claims());
    BOOST_TEST_REQUIRE(codec.verify(good, now, access_expectation).has_value());
    const std::string payload = payload_with(good_members);
    const auto dot1 = good.find('.');
    const auto dot2 = good.rfind('.');

    std::string tampered_payload = payload;
    tampered_payload[tampered_payload.find("42")] = '9';  // sub 92
    std::string tampered_signature = good;
    tampered_signature[dot2 + 1] = tampered_signature[dot2 + 1] == 'A' ? 'B' : 'A';
    std::string non_base64 = good;
    non_base64[1] = '*';
    std::string standard_alphabet = good;
    standard_alphabet[dot1 + 1] = '+';

    const std::string huge_scope(8192, 's');
    const std::string oversized =
        forge(good_header, payload_with(good_members + R"(,"scope":")" + huge_scope + "\""));

    struct row {
        std::string_view name;
        std::string token;
        token_expectation expected = access_expectation;
    };
    const row rows[] = {
        {"alg none, empty signature",
         base64url_encode(R"({"alg":"none","typ":"JWT"})") + "." + base64url_encode(payload) + "."},
        {"alg none, with a signature", forge(R"({"alg":"none","typ":"JWT"})", payload)},
        {"alg HS512 signed with HMAC-SHA512",
         forge(R"({"alg":"HS512","typ":"JWT"})", payload, secret, EVP_sha512())},
        {"alg hs256 (case)", forge(R"({"alg":"hs256","typ":"JWT"})", payload)},
        {"alg missing", forge(R"({"typ":"JWT"})", payload)},
        {"alg not a string", forge(R"({"alg":256,"typ":"JWT"})", payload)},
        {"header typ JWS", forge(R"({"alg":"HS256","typ":"JWS"})", payload)},
        {"header crit", forge(R"({"alg":"HS256","crit":"exp"})", payload)},
        {"header duplicate alg", forge(R"({"alg":"HS256","alg":"none"})", payload)},
        {"header not JSON", forge("alg=HS256", payload)},
        {"another secret", forge(good_header, payload, "another secret")},
        {"missing exp",
         forge(good_header, payload_with(R"("sub":42,"typ":"access","aud":"storefront-store")"))},
        {"exp as string",
         forge(
             good_header,
             payload_with(R"("sub":42,"typ":"access","aud":"storefront-store","exp":"1700000100")")
         )},
        {"exp with fraction",
         forge(
             good_header,
             payload_with(R"("sub":42,"typ":"access","aud":"storefront-store","exp":1700000100.5)")
         )},
        {"exp in the past",
         forge(
             good_header, payload_with(R"("sub":42,"typ":"access","aud":"storefront-store","exp":1699999999)")
         )},
        {"exp == now",
         forge(
             good_header, payload_with(R"("sub":42,"typ":"access","aud":"storefront-store","exp":1700000000)")
         )},
        {"nbf in the future", forge(good_header, payload_with(good_members + R"(,"nbf":1700000001)"))},
        {"iat as string",
         forge(
             good_header,
             payload_with(R"("sub":42,"typ":"access","aud":"storefront-store","iat":"0","exp":1700000100)")
         )},
        {"missing sub",
         forge(good_header, payload_with(R"("typ":"access","aud":"storefront-store","exp":1700000100)"))},
        {"sub boolean",
         forge(
             good_header,
             payload_with(R"("sub":true,"typ":"access","aud":"storefront-store","exp":1700000100)")
         )},
        {"scope as number", forge(good_header, payload_with(good_members + R"(,"scope":1)"))},
        {"payload nested", forge(good_header, payload_with(good_members + R"(,"x":{})"))},
        {"tampered payload",
         good.substr(0, dot1) + "." + base64url_encode(tampered_payload) + good.substr(dot2)},
        {"tampered signature", tampered_signature},
        {"truncated by one char", good.substr(0, good.size() - 1)},
        {"truncated signature", good.substr(0, dot2 + 10)},
        {"truncated after payload", good.substr(0, dot2 + 1)},
        {"truncated in the header", good.substr(0, dot1 - 3)},
        {"two parts", good.substr(0, dot2)},
        {"four parts", good + "." + good.substr(dot2 + 1)},
        {"trailing dot", good + "."},
        {"empty header part", good.substr(dot1)},
        {"empty string", ""},
        {"non-base64 character", non_base64},
        {"standard base64 alphabet", standard_alphabet},
        {"whitespace", good + " "},
        {"wrong typ", good, {"refresh", "storefront-store"}},
        {"typ expected but absent", forge(good_header, payload_with(R"("sub":42,"exp":1700000100)"))},
        {"typ present but none expected", good, {"", "storefront-store"}},
        {"wrong aud", good, {"access", "pets-surface"}},
        {"aud present but none expected", good, {"access", ""}},
        {"aud expected but absent",
         forge(good_header, payload_with(R"("sub":42,"typ":"access","exp":1700000100)"))},
        {"oversized", oversized},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.name) {
            const auto verified = codec.verify(r.token, now, r.expected);
            BOOST_TEST(!verified.has_value());
            if (!verified.has_value()) {
                BOOST_TEST(verified.error() == make_error_code(errc::invalid_token));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(length_limit_is_8_kib) {
    const jwt_codec codec{std::string(secret)};
    std::string scope(8192, 's');
    std::string token;
    // Shrink the scope until the token fits exactly, then check both sides of the limit.
    do {
        scope.pop_back();
        token = forge(good_header, payload_with(good_members + R"(,"scope":")" + scope + "\""));
    } while (token.size() > 8192);
    BOOST_TEST(token.size() >= 8189);
    BOOST_TEST(codec.verify(token, now, access_expectation).has_value());
    const std::string longer =
        forge(good_header, payload_with(good_members + R"(,"scope":")" + scope + "ss\""));
    BOOST_TEST_REQUIRE(longer.size() > 8192);
    BOOST_TEST(!codec.verify(longer, now, access_expectation).has_value());
}

BOOST_AUTO_TEST_CASE(empty_secret_throws) {
    BOOST_CHECK_THROW(jwt_codec{std::string()}, std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
