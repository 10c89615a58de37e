#pragma once
// --compat: which observable quirks of the public fake-store service /api/v1 reproduces, so suites written
// against that service pass unchanged. `none` keeps storefront's own behaviour (README, "Compatibility with
// the public service").

#include <optional>
#include <string_view>

namespace storefront::core {

enum class compat_mode {
    none,            // storefront's behaviour (the default)
    public_service,  // "public": the public service's statuses and bodies where suites assert them
};

// "none" or "public"; nullopt otherwise.
[[nodiscard]] std::optional<compat_mode> parse_compat_mode(std::string_view text) noexcept;

// The flag's spelling of `mode` ("none", "public").
[[nodiscard]] std::string_view compat_mode_name(compat_mode mode) noexcept;

// The `password` user bodies carry under compat_mode::public_service: a fixed mask, never the real
// password (storefront keeps only Argon2id hashes).
inline constexpr std::string_view masked_password = "********";

// The `password` /api/v1 user bodies carry under compat_mode::public_service where no password was just
// sent: alphanumeric, as the public service's passwords are (suites match them against its rules), the same
// for every user and never derived from a password. An answer to a create or update that sent one echoes
// that value instead (the request's own bytes; nothing clear-text is stored).
inline constexpr std::string_view placeholder_password = "hidden0";

}  // namespace storefront::core
