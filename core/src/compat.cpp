// The --compat values and their spelling. What each mode changes is decided where it shows: the page
// parameters (pagination), the error mapping and the store surface's services.

#include "core/compat.hpp"

namespace storefront::core {

std::optional<compat_mode> parse_compat_mode(std::string_view text) noexcept {
    if (text == "none") {
        return compat_mode::none;
    }
    if (text == "public") {
        return compat_mode::public_service;
    }
    return std::nullopt;
}

std::string_view compat_mode_name(compat_mode mode) noexcept {
    return mode == compat_mode::public_service ? "public" : "none";
}

}  // namespace storefront::core
