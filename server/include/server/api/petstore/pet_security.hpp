#pragma once
// Credentials of the pet store surface (/api/v3): API keys and OAuth client secrets checked in constant
// time, and the per-operation access rules (api_key header and/or bearer token with a scope).

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pet_auth.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/response.hpp"

namespace storefront::server {

class app_services;

class pet_credentials {
  public:
    pet_credentials(const std::vector<std::string>& api_keys, const std::vector<core::pet_client>& clients);

    // Whether `key` is one of the configured API keys. Compares SHA-256 digests with CRYPTO_memcmp
    // against every key, so timing reveals neither which key nor how much of it matched.
    [[nodiscard]] bool api_key_valid(std::string_view key) const;

    // The client with this id and secret (secret compared in constant time), else nullptr.
    [[nodiscard]] const core::pet_client* authenticate(std::string_view id, std::string_view secret) const;

  private:
    using digest = std::array<unsigned char, 32>;
    struct client_entry {
        core::pet_client client;
        digest secret_digest;
    };
    std::vector<digest> key_digests_;
    std::vector<client_entry> clients_;
};

// What an operation accepts (behaviour.md "Security").
enum class pet_access {
    api_key,               // GET /store/inventory
    api_key_or_read_pets,  // GET /pet/{petId}: api_key header, or a bearer token with read:pets
    write_pets,            // pet writes: a bearer token with write:pets
};

// nullopt when the request carries what `access` asks for; else the 401 (missing or bad credentials,
// with WWW-Authenticate) or 403 (valid token without the scope) to answer.
[[nodiscard]] std::optional<response> check_pet_access(
    const http_request& request, app_services& app, pet_access access
);

}  // namespace storefront::server
