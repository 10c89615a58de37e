#pragma once
// The seed catalogue of the public store service: 5 categories and 51 products, built in id order.

#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

// Creation time shared by the seed data (2026-01-01T00:00:00.000Z); each record adds one second per id.
inline constexpr core::timestamp_ms seed_epoch_ms = 1'767'225'600'000;

// The five seed categories, ids 1..5.
[[nodiscard]] std::vector<core::category> seed_categories();

// The 51 seed products, ids 1..51, each with its category embedded.
[[nodiscard]] std::vector<core::product> seed_products();

}  // namespace storefront::storage::detail
