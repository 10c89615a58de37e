#pragma once
// Wall-clock time for the timestamps stores assign (creationAt, updatedAt).

#include <chrono>

#include "core/model.hpp"

namespace storefront::storage::detail {

[[nodiscard]] inline core::timestamp_ms now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace storefront::storage::detail
