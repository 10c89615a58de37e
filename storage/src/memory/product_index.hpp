#pragma once
// The memory catalogue's search indexes: title trigrams (ASCII-lowered bytes), category and price, so a
// filter is checked against the few products that can pass it instead of every product.

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

class product_index {
  public:
    // Call with every product stored, and again (remove, then add) whenever its title, price or category
    // changes.
    void add(const core::product& p);
    void remove(const core::product& p);

    // The ids, ascending, of a superset of the products passing `filter` whose category is `category` when
    // given (the filter's categoryId or the id of its categorySlug), or nullopt when no index narrows the
    // search (every product must be checked).
    [[nodiscard]] std::optional<std::vector<std::int64_t>> candidates(
        const core::product_filter& filter, std::optional<std::int64_t> category
    ) const;

  private:
    using ids = std::vector<std::int64_t>;  // ascending
    [[nodiscard]] const ids* rarest_trigram(const std::string& title, bool& none) const;

    std::unordered_map<std::uint32_t, ids> trigrams_;
    std::unordered_map<std::int64_t, ids> categories_;
    std::set<std::pair<double, std::int64_t>> prices_;
};

}  // namespace storefront::storage::detail
