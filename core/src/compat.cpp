// The --compat values and their spelling. What each mode changes is decided where it shows: the page
// parameters (pagination), the error mapping and the store surface's services.

#include "core/compat.hpp"

#include "core/enum_names.hpp"

namespace storefront::core {

namespace {

constexpr enum_name<compat_mode> compat_mode_names[] = {
    {compat_mode::none, "none"},
    {compat_mode::public_service, "public"},
};

}  // namespace

std::optional<compat_mode> parse_compat_mode(std::string_view text) noexcept {
    return value_named(compat_mode_names, text);
}

std::string_view compat_mode_name(compat_mode mode) noexcept {
    return name_of(compat_mode_names, mode, "none");
}

}  // namespace storefront::core
