#pragma once
// Credentials of the pet store surface (/api/v3): API keys and OAuth client secrets checked in constant
// time. Which operation needs which is in the route table (routing/access).

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pet_auth.hpp"

namespace storefront::server {

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

}  // namespace storefront::server
