#pragma once
// Base64url without padding (RFC 4648 §5), as JWT uses it, and standard base64 (§4) for HTTP Basic.

#include <optional>
#include <string>
#include <string_view>

namespace storefront::core {

[[nodiscard]] std::string base64url_encode(std::string_view bytes);

// nullopt for characters outside the alphabet, padding, or an impossible length (len % 4 == 1),
// or non-zero trailing bits (so every encoding is canonical and a token cannot be re-encoded).
[[nodiscard]] std::optional<std::string> base64url_decode(std::string_view text);

// Standard alphabet (`+`, `/`) with optional `=` padding; otherwise as strict as base64url_decode.
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view text);

}  // namespace storefront::core
