// Base64url (RFC 4648 §5) without padding. The decoder is strict so every byte string has exactly one
// accepted encoding: no padding, no whitespace, no leftover non-zero bits.

#include "core/base64url.hpp"

#include <array>
#include <cstdint>

namespace storefront::core {
namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view standard_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

using decode_table = std::array<std::int8_t, 256>;

constexpr decode_table make_decode_table(std::string_view letters) {
    decode_table table{};
    for (auto& entry : table) {
        entry = -1;
    }
    for (std::size_t i = 0; i < letters.size(); ++i) {
        table[static_cast<unsigned char>(letters[i])] = static_cast<std::int8_t>(i);
    }
    return table;
}

constexpr auto url_table = make_decode_table(alphabet);
constexpr auto standard_table = make_decode_table(standard_alphabet);

// Strict, canonical decoding of unpadded text in the alphabet of `table`.
std::optional<std::string> decode_with(const decode_table& table, std::string_view text) {
    if (text.size() % 4 == 1) {
        return std::nullopt;
    }
    std::string out;
    out.reserve(text.size() / 4 * 3 + 2);
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char c : text) {
        const std::int8_t value = table[static_cast<unsigned char>(c)];
        if (value < 0) {
            return std::nullopt;
        }
        acc = (acc << 6) | static_cast<std::uint32_t>(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xFF));
        }
    }
    // Leftover bits (2 or 4) must be zero, or two texts would decode to the same bytes.
    if ((acc & ((1U << bits) - 1)) != 0) {
        return std::nullopt;
    }
    return out;
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t n = (std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16) |
                                (std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8) |
                                std::uint32_t{static_cast<unsigned char>(bytes[i + 2])};
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(alphabet[(n >> 6) & 63]);
        out.push_back(alphabet[n & 63]);
    }
    const std::size_t rest = bytes.size() - i;
    if (rest == 1) {
        const std::uint32_t n = std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16;
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
    } else if (rest == 2) {
        const std::uint32_t n = (std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16) |
                                (std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8);
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(alphabet[(n >> 6) & 63]);
    }
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    return decode_with(url_table, text);
}

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 == 0 && text.size() >= 4) {
        // Padding is only valid as the last one or two characters of a whole quantum.
        const std::size_t padding = text.substr(text.size() - 2) == "==" ? 2 : text.back() == '=' ? 1 : 0;
        text.remove_suffix(padding);
    }
    return decode_with(standard_table, text);
}

}  // namespace storefront::core
