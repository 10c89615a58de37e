// HS256 JWT signing and verification. The header is fixed, the signature is checked in constant time
// before any JSON is parsed, and every failure collapses to errc::invalid_token.

#include "core/jwt.hpp"

#include <charconv>
#include <stdexcept>
#include <utility>

#include <openssl/crypto.h>

#include "core/base64url.hpp"
#include "core/flat_json.hpp"
#include "core/hmac_sha256.hpp"

namespace storefront::core {
namespace {

constexpr std::size_t max_token_length = 8192;
// The canonical decimal form of an int64, or nullopt if `text` is not exactly one.
std::optional<std::int64_t> parse_int64(std::string_view text) {
    std::int64_t n = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return n;
}

const std::string* get_string(const flat_object& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : std::get_if<std::string>(&it->second);
}

const std::int64_t* get_int(const flat_object& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : std::get_if<std::int64_t>(&it->second);
}

// A claim that may be absent (then `out` keeps its value). Present, it must hold a T that satisfies `valid`;
// false means the token is invalid.
template <class T, class Valid>
bool read_optional_claim(const flat_object& object, std::string_view key, T& out, Valid valid) {
    const auto it = object.find(key);
    if (it == object.end()) {
        return true;
    }
    const T* value = std::get_if<T>(&it->second);
    if (value == nullptr || !valid(*value)) {
        return false;
    }
    out = *value;
    return true;
}

constexpr auto any_value = [](const auto&) { return true; };

bool header_ok(const flat_object& header) {
    const std::string* alg = get_string(header, "alg");
    if (alg == nullptr || *alg != "HS256") {
        return false;
    }
    std::string typ;
    if (!read_optional_claim(header, "typ", typ, [](const std::string& t) { return t == "JWT"; })) {
        return false;
    }
    // Unknown members (kid, cty, ...) are ignored, but "crit" demands we understand extensions we don't.
    return !header.contains("crit");
}

// A string claim that must equal `expected`, or be absent when `expected` is empty.
bool string_claim_matches(const flat_object& payload, std::string_view key, std::string_view expected) {
    if (!payload.contains(key)) {
        return expected.empty();
    }
    const std::string* value = get_string(payload, key);
    return value != nullptr && !expected.empty() && *value == expected;
}

void append_member(std::string& out, std::string_view key, std::string_view json_value) {
    out += out.size() == 1 ? "" : ",";
    out += write_json_string(key);
    out += ':';
    out += json_value;
}

}  // namespace

jwt_codec::jwt_codec(std::string secret) : secret_(std::move(secret)) {
    if (secret_.empty()) {
        throw std::invalid_argument("jwt_codec: empty secret");
    }
}

std::string jwt_codec::sign(const token_claims& claims) const {
    std::string payload = "{";
    if (claims.subject_is_number) {
        const auto subject = parse_int64(claims.subject);
        if (!subject) {
            throw std::invalid_argument("jwt_codec::sign: numeric subject is not an int64");
        }
        append_member(payload, "sub", std::to_string(*subject));
    } else {
        append_member(payload, "sub", write_json_string(claims.subject));
    }
    if (!claims.type.empty()) {
        append_member(payload, "typ", write_json_string(claims.type));
    }
    if (!claims.audience.empty()) {
        append_member(payload, "aud", write_json_string(claims.audience));
    }
    if (!claims.scope.empty()) {
        append_member(payload, "scope", write_json_string(claims.scope));
    }
    if (!claims.session.empty()) {
        append_member(payload, "sid", write_json_string(claims.session));
    }
    if (claims.generation >= 0) {
        append_member(payload, "gen", std::to_string(claims.generation));
    }
    append_member(payload, "iat", std::to_string(claims.issued_at));
    append_member(payload, "exp", std::to_string(claims.expires_at));
    payload += '}';

    std::string token = base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
    token += '.';
    token += base64url_encode(payload);
    const sha256_digest mac = hmac_sha256(secret_, token);
    token += '.';
    token += base64url_encode({reinterpret_cast<const char*>(mac.data()), mac.size()});
    return token;
}

result<token_claims> jwt_codec::verify(
    std::string_view token, std::int64_t now, const token_expectation& expected
) const {
    if (token.size() > max_token_length) {
        return errc::invalid_token;
    }
    const std::size_t dot1 = token.find('.');
    if (dot1 == std::string_view::npos) {
        return errc::invalid_token;
    }
    const std::size_t dot2 = token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos) {
        return errc::invalid_token;
    }
    const std::string_view header_part = token.substr(0, dot1);
    const std::string_view payload_part = token.substr(dot1 + 1, dot2 - dot1 - 1);
    const std::string_view signature_part = token.substr(dot2 + 1);
    if (header_part.empty() || payload_part.empty() || signature_part.empty()) {
        return errc::invalid_token;
    }
    const auto header_json = base64url_decode(header_part);
    const auto payload_json = base64url_decode(payload_part);
    const auto signature = base64url_decode(signature_part);
    if (!header_json || !payload_json || !signature || signature->size() != sha256_length) {
        return errc::invalid_token;
    }

    // Authenticate before interpreting anything the sender wrote.
    const sha256_digest mac = hmac_sha256(secret_, token.substr(0, dot2));
    if (CRYPTO_memcmp(mac.data(), signature->data(), sha256_length) != 0) {
        return errc::invalid_token;
    }

    const auto header = parse_flat_json(*header_json);
    if (!header || !header_ok(*header)) {
        return errc::invalid_token;
    }
    const auto payload = parse_flat_json(*payload_json);
    if (!payload) {
        return errc::invalid_token;
    }

    token_claims claims;
    const std::int64_t* exp = get_int(*payload, "exp");
    if (exp == nullptr || *exp <= now) {
        return errc::invalid_token;
    }
    claims.expires_at = *exp;
    // RFC 7519 §4.1.5: honour "nbf" when a token carries it, although ours never do.
    std::int64_t not_before = 0;
    if (!read_optional_claim(*payload, "iat", claims.issued_at, any_value) ||
        !read_optional_claim(*payload, "nbf", not_before, [&](std::int64_t nbf) { return nbf <= now; })) {
        return errc::invalid_token;
    }

    const auto sub = payload->find("sub");
    if (sub == payload->end()) {
        return errc::invalid_token;
    }
    if (const auto* number = std::get_if<std::int64_t>(&sub->second)) {
        claims.subject = std::to_string(*number);
        claims.subject_is_number = true;
    } else if (const auto* text = std::get_if<std::string>(&sub->second)) {
        claims.subject = *text;
        claims.subject_is_number = false;
    } else {
        return errc::invalid_token;
    }

    if (!string_claim_matches(*payload, "typ", expected.type) ||
        !string_claim_matches(*payload, "aud", expected.audience)) {
        return errc::invalid_token;
    }
    claims.type = std::string(expected.type);
    claims.audience = std::string(expected.audience);
    if (!read_optional_claim(*payload, "scope", claims.scope, any_value) ||
        !read_optional_claim(*payload, "sid", claims.session, any_value) ||
        !read_optional_claim(*payload, "gen", claims.generation, [](std::int64_t gen) { return gen >= 0; })) {
        return errc::invalid_token;
    }
    return claims;
}

}  // namespace storefront::core
