#pragma once
// The ports' answer for a row that may not be there, written once for every adapter: the value, or
// errc::not_found.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/errc.hpp"

namespace storefront::storage::detail {

// The value, or errc::not_found for nullopt.
template <class T>
[[nodiscard]] core::result<T> found(std::optional<T> value) {
    if (!value) {
        return core::errc::not_found;
    }
    return std::move(*value);
}

// The first row a lookup found (a query by a unique key finds one or none), or errc::not_found.
template <class T>
[[nodiscard]] core::result<T> first_or_not_found(std::vector<T> rows) {
    if (rows.empty()) {
        return core::errc::not_found;
    }
    return std::move(rows.front());
}

// The entry of `key` in `map` (a copy of the mapped value), or errc::not_found.
template <class Map, class Key>
[[nodiscard]] core::result<typename Map::mapped_type> find_in(const Map& map, const Key& key) {
    const auto it = map.find(key);
    if (it == map.end()) {
        return core::errc::not_found;
    }
    return it->second;
}

// The entry of `map` that `index` (a slug or e-mail index: key -> id) names for `key` (a copy), or
// errc::not_found.
template <class Index, class Map, class Key>
[[nodiscard]] core::result<typename Map::mapped_type> find_indexed(
    const Index& index, const Map& map, const Key& key
) {
    const auto it = index.find(key);
    if (it == index.end()) {
        return core::errc::not_found;
    }
    return map.at(it->second);
}

// The entry of `key` in `map` for a change: errc::not_found when there is none, `seed_error` when
// `is_seed(value)` says it is seed data (read-only).
template <class Map, class Key, class IsSeed>
[[nodiscard]] core::result<typename Map::iterator> find_writable(
    Map& map, const Key& key, IsSeed is_seed, core::errc seed_error
) {
    const auto it = map.find(key);
    if (it == map.end()) {
        return core::errc::not_found;
    }
    if (is_seed(it->second)) {
        return seed_error;
    }
    return it;
}

// A row read for a change: the lookup's error (errc::not_found) as it is, `seed_error` when `is_seed(row)`
// says it is seed data (read-only), else the row.
template <class Row, class IsSeed>
[[nodiscard]] core::result<Row> writable(core::result<Row> row, IsSeed is_seed, core::errc seed_error) {
    if (row && is_seed(*row)) {
        return seed_error;
    }
    return row;
}

// Success when something was removed, else errc::not_found.
[[nodiscard]] inline core::result<void> found_any(bool removed) {
    if (!removed) {
        return core::errc::not_found;
    }
    return {};
}

}  // namespace storefront::storage::detail
