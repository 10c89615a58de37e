#pragma once
// The catalogue's refused writes, named once for every surface: the errc the store answered and the text
// that says what went wrong ("Category 3 not found", "A product with slug \"x\" already exists"). /api/v1
// answers them with error_response (store_params::refusal_answer), GraphQL makes them field errors
// (graph_values.hpp: refused), so both surfaces say the same thing.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/system/error_code.hpp>

#include "storage/catalogue_store.hpp"

namespace storefront::server {

// A refused write: the store's errc and the text naming it (empty: the surface's default text for it).
struct refusal {
    boost::system::error_code code;
    std::string message;
};

// "Product 7 not found": an id of `type` ("Product", "Category", "User") that names nothing.
[[nodiscard]] std::string missing_text(std::string_view type, std::int64_t id);

// A refused write of product `id` (0 for a create) with `title` (as given, or empty) and `category_id`
// (as given, or 0).
[[nodiscard]] refusal product_refusal(
    boost::system::error_code ec, std::int64_t id, std::string_view title, std::int64_t category_id
);

// A refused write of category `id` (0 for a create) with `name` (as given, or empty). A delete refused
// while products still belong to it counts them in `catalogue` (blocking: call where the store may be).
[[nodiscard]] refusal category_refusal(
    const storage::catalogue_store& catalogue,
    boost::system::error_code ec,
    std::int64_t id,
    std::string_view name
);

}  // namespace storefront::server
