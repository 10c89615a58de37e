#pragma once
// Sandboxes (issue 20): private writable copies of the store named by a client-chosen id. The id rule,
// the --sandboxes mode, fresh random ids and the token secrets of one sandbox (derived from the shared
// ones, so a token issued in one sandbox fails the signature check everywhere else).

#include <optional>
#include <string>
#include <string_view>

namespace storefront::core {

// What clients are told when an id breaks the rule.
inline constexpr std::string_view sandbox_id_rule =
    "A sandbox id is 4 to 64 characters, each a letter, a digit, '_' or '-' ([A-Za-z0-9_-]{4,64})";

// True when `id` matches [A-Za-z0-9_-]{4,64}.
[[nodiscard]] bool valid_sandbox_id(std::string_view id) noexcept;

enum class sandbox_mode {
    off,       // the prefix and the header are refused
    on,        // both work; the shared view stays writable
    required,  // the shared view is read-only: writes go to a sandbox
};

// "off", "on" or "required"; nullopt otherwise.
[[nodiscard]] std::optional<sandbox_mode> parse_sandbox_mode(std::string_view text) noexcept;

// A fresh id: 128 random bits in base64url (22 characters, within the rule). Throws std::runtime_error
// when the system's random source fails.
[[nodiscard]] std::string random_sandbox_id();

// The secret sandbox `id` signs its tokens with: HMAC-SHA256(shared, "storefront sandbox " + id), as
// bytes. Every instance with the same shared secret derives the same one.
[[nodiscard]] std::string sandbox_secret(std::string_view shared, std::string_view id);

}  // namespace storefront::core
