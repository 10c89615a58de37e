#pragma once
// The seed catalogue of the public store service: 5 categories and 51 products, built in id order.

#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

// Creation time shared by the seed data (2026-01-01T00:00:00.000Z); each record adds one second per id.
inline constexpr core::timestamp_ms seed_epoch_ms = 1'767'225'600'000;

// The seed records of a table of constants: `make(row)` for every row, in table order (every seed is built
// this way).
template <class Table, class Make>
[[nodiscard]] auto records_from(const Table& table, Make make) {
    std::vector<std::decay_t<decltype(make(*std::begin(table)))>> out;
    out.reserve(std::size(table));
    for (const auto& row : table) {
        out.push_back(make(row));
    }
    return out;
}

// The seed stock of product `id`: (id * 7) % 25 + 5, so 5 to 29 units, varied but fixed (product 1 has 12,
// product 2 has 19). The same formula fills the stock column of a database from before it (the migrations
// of sqlite/database.cpp and postgres/schema.cpp spell it in SQL).
[[nodiscard]] constexpr std::int64_t seed_stock(std::int64_t id) noexcept {
    return (id * 7) % 25 + 5;
}

// The five seed categories, ids 1..5.
[[nodiscard]] std::vector<core::category> seed_categories();

// The 51 seed products, ids 1..51, each with its category embedded.
[[nodiscard]] std::vector<core::product> seed_products();

}  // namespace storefront::storage::detail
