#pragma once
// The store service's access/refresh token pair: separate secrets, a "typ" claim and the store audience,
// so an access token never works as a refresh token (and back), nor a pet-surface token here.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/errc.hpp"
#include "core/jwt.hpp"

namespace storefront::core {

struct token_settings {
    std::string access_secret;
    std::string refresh_secret;
    std::chrono::seconds access_lifetime{std::chrono::hours(24 * 20)};  // as the public service: 20 days
    std::chrono::seconds refresh_lifetime{std::chrono::hours(10)};      // as the public service: 10 hours
    // A login's refresh family (and every token of it) ends this long after the login, however often it
    // is refreshed (issue 45).
    std::chrono::seconds family_lifetime{std::chrono::hours(24 * 30)};
};

struct token_pair {
    std::string access_token;
    std::string refresh_token;
};

inline constexpr std::string_view store_audience = "storefront-store";

// A login's refresh family: every refresh moves it one generation on, and only the token of the current
// generation refreshes (an older one is a replay: the family is revoked). Kept by storage::session_store.
struct session_ref {
    std::string id;  // empty: a token pair outside any family (its refresh token refreshes nothing)
    std::int64_t generation = 0;
};

struct access_claims {
    std::int64_t user_id = 0;
    std::string session;  // the family of the login that issued it (empty for none)
};

struct refresh_claims {
    std::int64_t user_id = 0;
    session_ref session;
};

class auth_tokens {
  public:
    explicit auth_tokens(const token_settings& settings);

    // Both tokens name `session`; the refresh token also its generation.
    [[nodiscard]] token_pair issue(std::int64_t user_id, std::int64_t now, const session_ref& session = {})
        const;

    // The user id of a valid access token; errc::invalid_token otherwise.
    [[nodiscard]] result<std::int64_t> verify_access(std::string_view token, std::int64_t now) const;
    // The same, with the session the token belongs to.
    [[nodiscard]] result<access_claims> verify_access_claims(std::string_view token, std::int64_t now) const;

    // The user and session of a valid refresh token; errc::invalid_refresh_token otherwise.
    [[nodiscard]] result<refresh_claims> verify_refresh(std::string_view token, std::int64_t now) const;

    [[nodiscard]] std::chrono::seconds access_lifetime() const { return access_lifetime_; }
    [[nodiscard]] std::chrono::seconds refresh_lifetime() const { return refresh_lifetime_; }
    [[nodiscard]] std::chrono::seconds family_lifetime() const { return family_lifetime_; }

  private:
    jwt_codec access_;
    jwt_codec refresh_;
    std::chrono::seconds access_lifetime_;
    std::chrono::seconds refresh_lifetime_;
    std::chrono::seconds family_lifetime_;
};

// 128 random bits as 32 hex digits (OpenSSL's CSPRNG): the id of a new refresh family.
[[nodiscard]] std::string random_session_id();

}  // namespace storefront::core
