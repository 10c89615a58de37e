// Sandbox ids, modes and per-sandbox token secrets.

#include "core/sandbox.hpp"

#include <array>
#include <stdexcept>

#include <openssl/rand.h>

#include "core/base64url.hpp"
#include "core/hmac_sha256.hpp"

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
    const sha256_digest mac = hmac_sha256(shared, label);
    return std::string(reinterpret_cast<const char*>(mac.data()), mac.size());
}

}  // namespace storefront::core
