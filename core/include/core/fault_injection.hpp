#pragma once
// Error states on demand: the `_delay`, `_status` and `_fail_rate` request parameters a client adds to see
// its loading and error handling against real routes (honoured only when the server enables them).

#include <chrono>
#include <optional>

#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

inline constexpr long long max_fault_delay_ms = 10'000;
inline constexpr int min_fault_status = 400;
inline constexpr int max_fault_status = 599;

struct fault_plan {
    std::optional<std::chrono::milliseconds> delay;  // answer normally after this long
    std::optional<int> status;                       // answer with this 4xx/5xx status instead
    std::optional<double> fail_rate;                 // answer 503 for this share of requests, 0..1

    [[nodiscard]] bool empty() const noexcept { return !delay && !status && !fail_rate; }
};

// Reads `_delay` (integer milliseconds, 0..10000), `_status` (integer, 400..599) and `_fail_rate` (decimal,
// 0..1); other parameters are ignored. Every problem is reported, in the wording of the other query
// checks: "_delay must not be greater than 10000", "_status must not be less than 400", "_fail_rate must
// be a number conforming to the specified constraints", "_status must be given at most once".
[[nodiscard]] validated<fault_plan> parse_fault_plan(const query_params& params);

// Whether this request fails, given the plan's rate and a uniform random number in [0, 1): true for
// random < rate, so rate 0 never fails and rate 1 always does. A NaN on either side never fails.
[[nodiscard]] constexpr bool should_fail(double rate, double random) noexcept {
    return random < rate;
}

}  // namespace storefront::core
