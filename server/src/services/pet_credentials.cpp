// Pet surface credentials: digests of API keys and client secrets compared with CRYPTO_memcmp.
// Secrets never reach a log or a response.

#include "server/services/pet_credentials.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace storefront::server {

namespace {

std::array<unsigned char, 32> sha256(std::string_view text) {
    std::array<unsigned char, 32> out{};
    unsigned int length = 0;
    if (EVP_Digest(text.data(), text.size(), out.data(), &length, EVP_sha256(), nullptr) != 1 ||
        length != out.size()) {
        throw std::runtime_error("SHA-256 failed");
    }
    return out;
}

}  // namespace

pet_credentials::pet_credentials(
    const std::vector<std::string>& api_keys, const std::vector<core::pet_client>& clients
) {
    for (const auto& key : api_keys) {
        key_digests_.push_back(sha256(key));
    }
    for (const auto& client : clients) {
        clients_.push_back({client, sha256(client.secret)});
    }
}

bool pet_credentials::api_key_valid(std::string_view key) const {
    const digest presented = sha256(key);
    bool match = false;
    for (const auto& d : key_digests_) {
        match |= CRYPTO_memcmp(d.data(), presented.data(), d.size()) == 0;
    }
    return match;
}

const core::pet_client* pet_credentials::authenticate(std::string_view id, std::string_view secret) const {
    const digest presented = sha256(secret);
    const core::pet_client* found = nullptr;
    for (const auto& entry : clients_) {
        const bool secret_ok =
            CRYPTO_memcmp(entry.secret_digest.data(), presented.data(), presented.size()) == 0;
        if (entry.client.id == id && secret_ok) {
            found = &entry.client;
        }
    }
    return found;
}

}  // namespace storefront::server
