#pragma once
// Rate limiting as pure arithmetic: a rate ("20/s") with its burst, and one client's token bucket. Time is
// passed in (a monotonic reading, as a duration since any fixed origin), so callers own the clock and
// tests inject one; nothing here reads a clock, allocates or locks.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace storefront::core {

// `per_second` tokens flow into a bucket that holds at most `burst`; each request takes one.
struct rate_limit {
    std::uint32_t per_second = 0;
    std::uint32_t burst = 0;
};

// The largest rate and burst accepted (keeps the fixed-point arithmetic far from overflow).
inline constexpr std::uint32_t max_rate = 1'000'000;

// "20/s" or "20": 20 requests per second, 1..max_rate, digits only (no sign, space or fraction).
// nullopt otherwise.
[[nodiscard]] std::optional<std::uint32_t> parse_rate(std::string_view text) noexcept;

// A burst "40": 1..max_rate, digits only; nullopt otherwise.
[[nodiscard]] std::optional<std::uint32_t> parse_burst(std::string_view text) noexcept;

// What one request gets from a bucket. Seconds are whole, rounded up, so a client that waits them is served.
struct bucket_verdict {
    bool allowed = false;
    std::uint32_t remaining = 0;    // whole tokens left after this request
    std::uint32_t retry_after = 0;  // refused: seconds until one token is back (>= 1); allowed: 0
    std::uint32_t reset = 0;        // seconds until the bucket is full again (0 when it is)
};

// One client's bucket. Starts full at `now`. Tokens are held in nano-tokens (1 token = 1e9) so that
// refilling `rate` tokens per second is an exact integer product of elapsed nanoseconds and rate.
class token_bucket {
  public:
    token_bucket(rate_limit limit, std::chrono::nanoseconds now) noexcept;

    // Refills up to `now` (an earlier reading than the last one counts as no time passed), then takes a
    // token if one is there.
    [[nodiscard]] bucket_verdict take(rate_limit limit, std::chrono::nanoseconds now) noexcept;

    // Whether the bucket would be full at `now`: then it is no different from a fresh one and may be dropped.
    [[nodiscard]] bool full_at(rate_limit limit, std::chrono::nanoseconds now) const noexcept;

  private:
    void refill(rate_limit limit, std::chrono::nanoseconds now) noexcept;

    std::int64_t level_;  // nano-tokens, 0..burst * 1e9
    std::chrono::nanoseconds last_;
};

// The window of the RateLimit-Policy header for `limit`: the seconds an empty bucket takes to fill,
// rounded up, at least 1; its quota is per_second * window.
[[nodiscard]] std::uint32_t policy_window(rate_limit limit) noexcept;

}  // namespace storefront::core
