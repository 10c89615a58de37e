#pragma once
// Portable draws from std::mt19937_64: its output sequence is fixed by the standard, unlike the
// std:: distributions, so seeded answers are the same with every standard library.

#include <cstdint>
#include <random>

namespace storefront::storage::detail {

// A double in [0, 1) from the top 53 bits of one draw.
[[nodiscard]] inline double unit_double(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// An integer in [0, bound), without modulo bias (rejects the short top range); `bound` must be > 0.
[[nodiscard]] inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    for (;;) {
        const std::uint64_t x = rng();
        if (x >= threshold) {
            return x % bound;
        }
    }
}

}  // namespace storefront::storage::detail
