#pragma once
// Credentials of the pet store surface: OAuth 2.0 clients (client-credentials grant), scope lists, the
// HTTP Basic client authentication header, and the surface's bearer tokens. Tokens are jwt_codec JWTs
// with their own secret, "typ" access, the pet audience and a "scope" claim, so a store token never
// works here and a pet token never works on /api/v1.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "core/jwt.hpp"
#include "core/validation.hpp"

namespace storefront::core {

inline constexpr std::string_view pet_audience = "storefront-pet";
inline constexpr std::string_view scope_read_pets = "read:pets";
inline constexpr std::string_view scope_write_pets = "write:pets";
// Replaces any pet-store user's password (an administrator's client; issue 45).
inline constexpr std::string_view scope_admin_users = "admin:users";

// One configured OAuth client and the scopes it may be granted.
struct pet_client {
    std::string id;
    std::string secret;
    std::vector<std::string> scopes;
};

// Parses "id:secret:scope scope,id2:secret2:scope" (clients separated by ',', scopes by spaces; the id
// and secret end at the first and second ':'). Each client needs a non-empty id and secret, at least one
// scope, only known scopes (read:pets, write:pets) and a distinct id. Error: one message saying what is
// wrong.
[[nodiscard]] validated<std::vector<pet_client>> parse_pet_clients(std::string_view spec);

// The space-separated items of an OAuth scope parameter or claim (RFC 6749 §3.3), without duplicates.
[[nodiscard]] std::vector<std::string> split_scopes(std::string_view scopes);

// Whether the space-separated `scopes` contains `wanted` exactly.
[[nodiscard]] bool has_scope(std::string_view scopes, std::string_view wanted);

// The scopes a client-credentials grant gives (RFC 6749 §3.3): every scope of the client when none is
// asked for, else exactly the space-separated scopes asked for when the client holds each one; nullopt
// otherwise (the token endpoint's invalid_scope).
[[nodiscard]] std::optional<std::vector<std::string>> grant_scopes(
    const std::optional<std::string>& requested, const std::vector<std::string>& client_scopes
);

// Decodes "Basic base64(id:secret)" (scheme case-insensitive; id and secret form-url-decoded as RFC 6749
// §2.3.1 asks). nullopt for another scheme, bad base64 or no ':'.
struct basic_credentials {
    std::string id;
    std::string secret;
};
[[nodiscard]] std::optional<basic_credentials> parse_basic_authorization(std::string_view header);

struct pet_token_settings {
    std::string secret;
    std::chrono::seconds lifetime{3600};
};

// What a verified pet token says.
struct pet_grant {
    std::string client_id;
    std::string scope;  // space-separated
};

class pet_tokens {
  public:
    // Throws std::invalid_argument for an empty secret or a non-positive lifetime.
    explicit pet_tokens(const pet_token_settings& settings);

    // A signed access token for `client_id` with `scope`, valid for the configured lifetime.
    [[nodiscard]] std::string issue(std::string_view client_id, std::string_view scope, std::int64_t now)
        const;

    // errc::invalid_token for a bad, expired or foreign (other audience/type/secret) token.
    [[nodiscard]] result<pet_grant> verify(std::string_view token, std::int64_t now) const;

    [[nodiscard]] std::chrono::seconds lifetime() const noexcept { return lifetime_; }

  private:
    jwt_codec codec_;
    std::chrono::seconds lifetime_;
};

}  // namespace storefront::core
