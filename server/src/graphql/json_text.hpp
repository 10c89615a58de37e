#pragma once

#include <string>

#include <boost/json/value.hpp>

namespace storefront::graphql::detail {

// JSON text like boost::json::serialize, but doubles in their shortest round-trip decimal form ("99.5",
// not "9.95E1"), as JavaScript prints them in responses and messages.
[[nodiscard]] std::string json_text(const boost::json::value& v);

}  // namespace storefront::graphql::detail
