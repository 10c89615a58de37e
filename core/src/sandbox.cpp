// Sandbox ids, modes and per-sandbox token secrets.

#include "core/sandbox.hpp"

#include <array>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "core/base64url.hpp"

namespace storefront::core {

bool valid_sandbox_id(std::string_view id) noexcept {
    if (id.size() < 4 || id.size() > 64) {
        return false;
    }
    for (const char c : id) {
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        const bool digit = c >= '0' && c <= '9';
        if (!letter && !digit && c != '_' && c != '-') {
            return false;
        }
    }
    return true;
}

std::optional<sandbox_mode> parse_sandbox_mode(std::string_view text) noexcept {
    if (text == "off") {
        return sandbox_mode::off;
    }
    if (text == "on") {
        return sandbox_mode::on;
    }
    if (text == "required") {
        return sandbox_mode::required;
    }
    return std::nullopt;
}

std::string random_sandbox_id() {
    std::array<unsigned char, 16> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("cannot generate a random sandbox id");
    }
    return base64url_encode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string sandbox_secret(std::string_view shared, std::string_view id) {
    const std::string label = "storefront sandbox " + std::string(id);
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int length = 0;
    if (HMAC(
            EVP_sha256(),
            shared.data(),
            static_cast<int>(shared.size()),
            reinterpret_cast<const unsigned char*>(label.data()),
            label.size(),
            mac.data(),
            &length
        ) == nullptr) {
        throw std::runtime_error("cannot derive a sandbox secret");
    }
    return std::string(reinterpret_cast<const char*>(mac.data()), length);
}

}  // namespace storefront::core
