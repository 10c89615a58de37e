// The store's access/refresh pair on top of jwt_codec: one secret and "typ" per kind, the store audience,
// and a positive numeric user id as "sub".

#include "core/auth_tokens.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>

#include <openssl/rand.h>

namespace storefront::core {
namespace {

constexpr std::string_view access_type = "access";
constexpr std::string_view refresh_type = "refresh";

// Checked before either codec is built, so a bad configuration fails with one clear message.
const token_settings& checked(const token_settings& settings) {
    if (settings.access_secret.empty() || settings.refresh_secret.empty()) {
        throw std::invalid_argument("auth_tokens: empty token secret");
    }
    if (settings.access_secret == settings.refresh_secret) {
        throw std::invalid_argument("auth_tokens: access and refresh secrets must differ");
    }
    return settings;
}

token_claims claims_for(
    std::int64_t user_id, std::string_view type, std::int64_t now, std::chrono::seconds life
) {
    token_claims claims;
    claims.subject = std::to_string(user_id);
    claims.subject_is_number = true;
    claims.type = std::string(type);
    claims.audience = std::string(store_audience);
    claims.issued_at = now;
    claims.expires_at = now + life.count();
    return claims;
}

// The claims of a valid token of `type` whose subject is a positive user id.
result<std::pair<std::int64_t, token_claims>> verified_user(
    const jwt_codec& codec, std::string_view token, std::int64_t now, std::string_view type, errc failure
) {
    auto claims = codec.verify(token, now, {type, store_audience});
    if (!claims || !claims->subject_is_number) {
        return failure;
    }
    std::int64_t user_id = 0;
    const std::string& subject = claims->subject;
    const auto [ptr, ec] = std::from_chars(subject.data(), subject.data() + subject.size(), user_id);
    if (ec != std::errc{} || ptr != subject.data() + subject.size() || user_id <= 0) {
        return failure;
    }
    return std::pair{user_id, std::move(*claims)};
}

}  // namespace

auth_tokens::auth_tokens(const token_settings& settings)
    : access_(checked(settings).access_secret),
      refresh_(settings.refresh_secret),
      access_lifetime_(settings.access_lifetime),
      refresh_lifetime_(settings.refresh_lifetime),
      family_lifetime_(settings.family_lifetime) {}

// A non-positive id is a caller bug (verify would refuse the token), so it throws std::invalid_argument.
token_pair auth_tokens::issue(std::int64_t user_id, std::int64_t now, const session_ref& session) const {
    if (user_id <= 0) {
        throw std::invalid_argument("auth_tokens::issue: user id must be positive");
    }
    auto access = claims_for(user_id, access_type, now, access_lifetime_);
    auto refresh = claims_for(user_id, refresh_type, now, refresh_lifetime_);
    access.session = session.id;
    refresh.session = session.id;
    if (!session.id.empty()) {
        refresh.generation = session.generation;
    }
    return {access_.sign(access), refresh_.sign(refresh)};
}

result<std::int64_t> auth_tokens::verify_access(std::string_view token, std::int64_t now) const {
    const auto verified = verified_user(access_, token, now, access_type, errc::invalid_token);
    if (!verified) {
        return verified.error();
    }
    return verified->first;
}

result<access_claims> auth_tokens::verify_access_claims(std::string_view token, std::int64_t now) const {
    auto verified = verified_user(access_, token, now, access_type, errc::invalid_token);
    if (!verified) {
        return verified.error();
    }
    return access_claims{verified->first, std::move(verified->second.session)};
}

result<refresh_claims> auth_tokens::verify_refresh(std::string_view token, std::int64_t now) const {
    auto verified = verified_user(refresh_, token, now, refresh_type, errc::invalid_refresh_token);
    if (!verified) {
        return verified.error();
    }
    const std::int64_t generation = std::max<std::int64_t>(verified->second.generation, 0);
    return refresh_claims{verified->first, {std::move(verified->second.session), generation}};
}

std::string random_session_id() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) {
        throw std::runtime_error("random_session_id: no randomness available");
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string id;
    for (const unsigned char b : bytes) {
        id += digits[b >> 4];
        id += digits[b & 15];
    }
    return id;
}

}  // namespace storefront::core
