#pragma once
// Small readers of JSON list answers shared by the end-to-end tests.

#include <cstdint>
#include <vector>

#include <boost/json/value.hpp>

namespace storefront::test {

// The "id" of every object of a JSON array, in order.
inline std::vector<std::int64_t> ids_of(const boost::json::value& list) {
    std::vector<std::int64_t> ids;
    for (const auto& item : list.as_array()) {
        ids.push_back(item.at("id").as_int64());
    }
    return ids;
}

// first, first + 1, …, last.
inline std::vector<std::int64_t> range(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> out;
    for (auto i = first; i <= last; ++i) {
        out.push_back(i);
    }
    return out;
}

}  // namespace storefront::test
