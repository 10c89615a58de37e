#pragma once
// URL slugs: lower-case ASCII, accents stripped, each run of other characters one '-', no '-' at the ends.

#include <string>
#include <string_view>

namespace storefront::core {

// `T-Shirt (XL)/Blue` -> `t-shirt-xl-blue`, `Café au lait` -> `cafe-au-lait` (input is UTF-8).
[[nodiscard]] std::string make_slug(std::string_view title);

}  // namespace storefront::core
