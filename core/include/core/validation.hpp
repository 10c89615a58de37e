#pragma once
// Input validation outcome: every problem found, as messages a client can show
// (class-validator wording, e.g. "limit must not be greater than 100").

#include <string>
#include <vector>

#include <boost/system/result.hpp>

namespace storefront::core {

struct validation_errors {
    std::vector<std::string> messages;
};

template <class T>
using validated = boost::system::result<T, validation_errors>;

}  // namespace storefront::core
