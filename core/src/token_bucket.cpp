// Token bucket arithmetic in integer nano-tokens: refill by elapsed time, take, and the whole seconds
// (rounded up) a client is told to wait; plus the "N/s" rate syntax of --rate-limit.

#include "core/token_bucket.hpp"

#include <algorithm>
#include <charconv>

namespace storefront::core {

namespace {

constexpr std::int64_t nano = 1'000'000'000;  // nano-tokens per token, nanoseconds per second

std::optional<std::uint32_t> parse_count(std::string_view digits) noexcept {
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value == 0 ||
        value > max_rate) {
        return std::nullopt;
    }
    return value;
}

// ceil(a / b) for a >= 0, b > 0.
std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
    return (a + b - 1) / b;
}

std::int64_t capacity_of(rate_limit limit) noexcept {
    return static_cast<std::int64_t>(limit.burst) * nano;
}

}  // namespace

std::optional<std::uint32_t> parse_rate(std::string_view text) noexcept {
    if (text.size() > 2 && text.substr(text.size() - 2) == "/s") {
        text.remove_suffix(2);
    }
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        return std::nullopt;  // from_chars takes '-' for unsigned types as an error anyway; be explicit
    }
    return parse_count(text);
}

std::optional<std::uint32_t> parse_burst(std::string_view text) noexcept {
    return parse_count(text);
}

token_bucket::token_bucket(rate_limit limit, std::chrono::nanoseconds now) noexcept
    : level_(capacity_of(limit)), last_(now) {}

void token_bucket::refill(rate_limit limit, std::chrono::nanoseconds now) noexcept {
    const std::int64_t capacity = capacity_of(limit);
    if (now <= last_ || limit.per_second == 0) {
        return;
    }
    const std::int64_t elapsed = (now - last_).count();
    last_ = now;
    const std::int64_t missing = capacity - level_;
    // Compare in time first: elapsed * rate could overflow after a long idle period.
    if (elapsed >= ceil_div(missing, limit.per_second)) {
        level_ = capacity;
    } else {
        level_ += elapsed * limit.per_second;
    }
}

bucket_verdict token_bucket::take(rate_limit limit, std::chrono::nanoseconds now) noexcept {
    refill(limit, now);
    bucket_verdict v;
    if (level_ >= nano) {
        level_ -= nano;
        v.allowed = true;
    } else if (limit.per_second != 0) {
        v.retry_after = static_cast<std::uint32_t>(
            std::max<std::int64_t>(1, ceil_div(ceil_div(nano - level_, limit.per_second), nano))
        );
    }
    v.remaining = static_cast<std::uint32_t>(level_ / nano);
    if (limit.per_second != 0) {
        v.reset =
            static_cast<std::uint32_t>(ceil_div(ceil_div(capacity_of(limit) - level_, limit.per_second), nano)
            );
    }
    return v;
}

bool token_bucket::full_at(rate_limit limit, std::chrono::nanoseconds now) const noexcept {
    token_bucket probe = *this;
    probe.refill(limit, now);
    return probe.level_ >= capacity_of(limit);
}

std::uint32_t policy_window(rate_limit limit) noexcept {
    if (limit.per_second == 0) {
        return 1;
    }
    return std::max<std::uint32_t>(1, (limit.burst + limit.per_second - 1) / limit.per_second);
}

}  // namespace storefront::core
