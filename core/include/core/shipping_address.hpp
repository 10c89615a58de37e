#pragma once
// The shipping address of a checkout (issue 42): name, line1, optional line2, city, postalCode, country.
// Strings are trimmed; every problem is reported with the field it is about.

#include <string>
#include <vector>

#include <boost/system/result.hpp>

#include "core/input.hpp"
#include "core/shop_model.hpp"

namespace storefront::core {

inline constexpr std::size_t max_address_name_length = 100;
inline constexpr std::size_t max_address_line_length = 200;
inline constexpr std::size_t max_city_length = 100;
inline constexpr std::size_t max_postal_code_length = 16;

struct address_problem {
    std::string field;  // "shippingAddress.postalCode"
    std::string message;

    friend bool operator==(const address_problem&, const address_problem&) = default;
};

// The members of the shippingAddress object. name, line1 and city: non-empty strings within their length;
// line2: absent, null or such a string (empty means none); postalCode: 1-16 letters, digits, spaces or
// dashes with at least one letter or digit; country: two ASCII letters (ISO 3166-1 alpha-2), kept upper case.
[[nodiscard]] boost::system::result<shipping_address, std::vector<address_problem>> read_shipping_address(
    const input_fields& fields
);

}  // namespace storefront::core
