#pragma once
// Payments by outcome since start (issue 42), counted where the store answered them; /metrics reads them
// (handlers do not include ops/). Four fixed outcomes: bounded labels.

#include <atomic>
#include <cstdint>

#include "core/shop_model.hpp"

namespace storefront::server::shop_counters {

struct payment_counts {
    std::uint64_t succeeded = 0;
    std::uint64_t failed = 0;
    std::uint64_t requires_action = 0;
    std::uint64_t refunded = 0;
};

namespace detail {
inline std::atomic<std::uint64_t> counts[4];
}  // namespace detail

// One payment answered with `status` (a 3-D Secure completion counts its outcome once more).
inline void count_payment(core::payment_status status) noexcept {
    detail::counts[static_cast<std::size_t>(status)].fetch_add(1, std::memory_order_relaxed);
}

[[nodiscard]] inline payment_counts counted() noexcept {
    const auto of = [](core::payment_status s) {
        return detail::counts[static_cast<std::size_t>(s)].load(std::memory_order_relaxed);
    };
    return {
        of(core::payment_status::succeeded),
        of(core::payment_status::failed),
        of(core::payment_status::requires_action),
        of(core::payment_status::refunded)};
}

}  // namespace storefront::server::shop_counters
