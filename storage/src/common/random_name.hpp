#pragma once
// Names for uploaded files: 128 random bits in hex, so that names cannot be guessed from one another.

#include <cstdint>
#include <random>
#include <string>

namespace storefront::storage::detail {

[[nodiscard]] inline std::string random_name() {
    static thread_local std::random_device entropy;  // /dev/urandom on Linux
    constexpr char hex[] = "0123456789abcdef";
    std::string name;
    for (int word = 0; word < 4; ++word) {
        std::uint32_t bits = entropy();
        for (int i = 0; i < 8; ++i) {
            name += hex[bits & 0xF];
            bits >>= 4;
        }
    }
    return name;
}

}  // namespace storefront::storage::detail
