#pragma once
// E-mail syntax check, normalisation (trim + lower-case) and availability against a set of taken addresses.

#include <optional>
#include <string>
#include <string_view>

namespace storefront::core {

// The canonical form used for comparisons, or nullopt when `text` is not a plausible address
// (one '@', non-empty local part, dotted domain of letters/digits/hyphens, no spaces or controls, <= 254
// bytes).
[[nodiscard]] std::optional<std::string> normalize_email(std::string_view text);

// True when no existing user has the address. `is_taken` receives the normalised address.
template <class IsTaken>
[[nodiscard]] bool is_email_available(const std::string& normalized, IsTaken&& is_taken) {
    return !is_taken(normalized);
}

}  // namespace storefront::core
