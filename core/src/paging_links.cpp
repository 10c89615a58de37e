// Offset arithmetic for a list's first/prev/next/last links.
// Written with differences rather than sums so offsets near SIZE_MAX cannot wrap.

#include "core/paging_links.hpp"

namespace storefront::core {

paging_links paging_links_for(std::size_t total, std::size_t offset, std::size_t limit) noexcept {
    paging_links links;
    if (limit == 0) {
        return links;
    }
    if (offset > 0) {
        links.prev = offset > limit ? offset - limit : 0;
    }
    if (offset < total && limit < total - offset) {
        links.next = offset + limit;
    }
    if (total > 0) {
        links.last = (total - 1) / limit * limit;
    }
    return links;
}

}  // namespace storefront::core
