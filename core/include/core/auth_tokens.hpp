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
};

struct token_pair {
    std::string access_token;
    std::string refresh_token;
};

inline constexpr std::string_view store_audience = "storefront-store";

class auth_tokens {
  public:
    explicit auth_tokens(const token_settings& settings);

    [[nodiscard]] token_pair issue(std::int64_t user_id, std::int64_t now) const;

    // The user id of a valid access token; errc::invalid_token otherwise.
    [[nodiscard]] result<std::int64_t> verify_access(std::string_view token, std::int64_t now) const;

    // The user id of a valid refresh token; errc::invalid_refresh_token otherwise.
    [[nodiscard]] result<std::int64_t> verify_refresh(std::string_view token, std::int64_t now) const;

  private:
    jwt_codec access_;
    jwt_codec refresh_;
    std::chrono::seconds access_lifetime_;
    std::chrono::seconds refresh_lifetime_;
};

}  // namespace storefront::core
