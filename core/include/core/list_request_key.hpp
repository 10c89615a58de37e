#pragma once
// A canonical text for one product list request (filters, q, sortBy, order, select, page), so answers can be
// cached by what was asked rather than how the query string spelled it.

#include <string>

#include "core/list_options.hpp"
#include "core/model.hpp"
#include "core/pagination.hpp"

namespace storefront::core {

// Equal for requests that must get the same answer from the same store revision, different otherwise:
// every field is written with its length or in a fixed form, so no two requests share a key.
[[nodiscard]] std::string product_list_key(
    const product_filter& filter, const list_options& options, const page_request& page
);

}  // namespace storefront::core
