#pragma once
// The id the memory stores give the next entity they number themselves.

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace storefront::storage {

// The id after the largest one; the server caps client-chosen ids far below the int64 limit.
inline std::int64_t next_id(std::int64_t largest) {
    if (largest == std::numeric_limits<std::int64_t>::max()) {
        throw std::overflow_error("no free id left");
    }
    return largest + 1;
}

}  // namespace storefront::storage
