#pragma once
// The ports' answer for a row that may not be there, written once for every adapter: the value, or
// errc::not_found.

#include "core/errc.hpp"

namespace storefront::storage::detail {

// The entry of `key` in `map` (a copy of the mapped value), or errc::not_found.
template <class Map, class Key>
[[nodiscard]] core::result<typename Map::mapped_type> find_in(const Map& map, const Key& key) {
    const auto it = map.find(key);
    if (it == map.end()) {
        return core::errc::not_found;
    }
    return it->second;
}

}  // namespace storefront::storage::detail
