// Idempotency keys: header parsing, request fingerprints (OpenSSL SHA-256) and the replay decision.

#include "core/idempotency.hpp"

#include <array>

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace storefront::core {

std::optional<std::string> parse_idempotency_key(std::string_view header) {
    if (header.size() >= 2 && header.front() == '"' && header.back() == '"') {
        header = header.substr(1, header.size() - 2);
    }
    if (header.empty() || header.size() > max_idempotency_key_length) {
        return std::nullopt;
    }
    for (const char c : header) {
        if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
            return std::nullopt;
        }
    }
    return std::string(header);
}

std::string request_fingerprint(std::string_view method, std::string_view path, std::string_view body) {
    std::string framed;
    framed.reserve(method.size() + path.size() + body.size() + 64);
    for (const auto part : {method, path, body}) {
        framed += std::to_string(part.size());
        framed += ':';
        framed += part;
    }
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(framed.data()), framed.size(), digest.data());
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(digest.size() * 2);
    for (const auto byte : digest) {
        out += hex[byte >> 4];
        out += hex[byte & 0x0f];
    }
    return out;
}

idempotency_decision decide_idempotency(
    const std::optional<idempotency_record>& existing, std::string_view fingerprint, timestamp_ms now
) noexcept {
    if (!existing || now - existing->created_at >= idempotency_key_lifetime_ms) {
        return idempotency_decision::start;
    }
    if (existing->fingerprint != fingerprint) {
        return idempotency_decision::mismatch;
    }
    if (existing->in_progress) {
        return now - existing->updated_at >= idempotency_stale_after_ms ? idempotency_decision::start
                                                                        : idempotency_decision::in_progress;
    }
    return idempotency_decision::replay;
}

}  // namespace storefront::core
