// Pet surface credentials: digests of API keys and client secrets compared with CRYPTO_memcmp, and the
// access check each protected /api/v3 handler runs first. Secrets never reach a log or a response.

#include "server/api/petstore/pet_security.hpp"

#include <boost/algorithm/string/predicate.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "core/jwt.hpp"
#include "server/app/app_services.hpp"
#include "server/routing/error_responses.hpp"
#include "server/codec/request_body.hpp"

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

std::optional<response> check_pet_access(const http_request& request, app_services& app, pet_access access) {
    const bool accepts_key = access != pet_access::write_pets;
    const std::string_view scope = access == pet_access::api_key_or_read_pets ? core::scope_read_pets
                                   : access == pet_access::write_pets         ? core::scope_write_pets
                                                                              : std::string_view();
    if (accepts_key) {
        const std::string_view key = request["api_key"];
        if (!key.empty() && app.pet_keys().api_key_valid(key)) {
            return std::nullopt;
        }
    }
    bool bad_token = false;
    if (!scope.empty()) {
        const std::string_view token = bearer_token(request[http::field::authorization]);
        if (!token.empty()) {
            const auto grant = app.pet_tokens().verify(token, core::unix_now());
            if (grant && core::has_scope(grant->scope, scope)) {
                return std::nullopt;
            }
            if (grant) {
                return pet_forbidden(scope);
            }
            bad_token = true;
        }
    }
    return pet_unauthorized(accepts_key, scope, bad_token);
}

}  // namespace storefront::server
