#pragma once
// The petstore's memory adapters (pets, orders, pet users) start from their seed rows the same way: each row
// under its key, refused when its id is not positive or its key is taken.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace storefront::storage::detail {

// `rows` in a map of type Map, each under `key_of(row)`. Throws std::invalid_argument (`refusal` followed by
// the key) for a row whose `id_of(row)` is not positive or whose key is already taken.
template <class Map, class Row, class KeyOf, class IdOf>
[[nodiscard]] Map seed_map(std::vector<Row> rows, KeyOf key_of, IdOf id_of, std::string_view refusal) {
    Map map;
    for (auto& row : rows) {
        auto key = key_of(row);
        if (id_of(row) <= 0 || !map.emplace(key, std::move(row)).second) {
            if constexpr (std::is_integral_v<decltype(key)>) {
                throw std::invalid_argument(std::string(refusal) + std::to_string(key));
            } else {
                throw std::invalid_argument(std::string(refusal) + std::string(key));
            }
        }
    }
    return map;
}

}  // namespace storefront::storage::detail
