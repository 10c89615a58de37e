#pragma once
// JSON Web Tokens, HS256 only (RFC 7519 / RFC 7515), signed with OpenSSL HMAC-SHA256 and compared in
// constant time. `alg` is pinned, `exp` is required; `typ` and `aud` claims keep token kinds apart.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/errc.hpp"

namespace storefront::core {

struct token_claims {
    std::string subject;            // "sub"
    bool subject_is_number = true;  // write "sub" as a JSON number (store user ids) or a string
    std::string type;               // "typ" claim: "access", "refresh", ... (empty = absent)
    std::string audience;           // "aud" (empty = absent)
    std::string scope;              // "scope", space-separated (empty = absent)
    std::string session;            // "sid": the refresh family a store token belongs to (empty = absent)
    std::int64_t generation = -1;   // "gen": a refresh token's place in its family (-1 = absent)
    std::int64_t issued_at = 0;     // "iat", seconds since the epoch
    std::int64_t expires_at = 0;    // "exp", seconds since the epoch
};

// What a verified token must carry besides a good signature and a future `exp`.
struct token_expectation {
    std::string_view type;      // must equal the "typ" claim
    std::string_view audience;  // must equal the "aud" claim
};

class jwt_codec {
  public:
    // `secret` is the HMAC key; it must not be empty.
    explicit jwt_codec(std::string secret);

    [[nodiscard]] std::string sign(const token_claims& claims) const;

    // errc::invalid_token for: wrong shape, bad base64url, header other than alg HS256, bad signature,
    // missing/ill-typed claims, `exp` <= now, type or audience mismatch, token longer than 8 KiB.
    [[nodiscard]] result<token_claims> verify(
        std::string_view token, std::int64_t now, const token_expectation& expected
    ) const;

  private:
    std::string secret_;
};

// Seconds since the epoch, the clock all token code uses.
[[nodiscard]] inline std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch(
                                                            ))
        .count();
}

}  // namespace storefront::core
