#pragma once
// HMAC-SHA256 (RFC 2104), the one keyed digest core uses: JWT signatures and per-sandbox secrets.

#include <array>
#include <cstddef>
#include <string_view>

namespace storefront::core {

inline constexpr std::size_t sha256_length = 32;
using sha256_digest = std::array<unsigned char, sha256_length>;

// The MAC of `data` under `key`. Throws std::runtime_error only if OpenSSL itself fails.
[[nodiscard]] sha256_digest hmac_sha256(std::string_view key, std::string_view data);

}  // namespace storefront::core
