#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

// Source text helpers of the lexer: UTF-8 checks and encoding, characters as messages print them, and
// the block string algorithm.
namespace storefront::graphql::detail {

// Appends code point `cp` encoded as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);
// Length of the well-formed UTF-8 sequence at `s[i]`, 0 when it is not one (overlongs and surrogates too).
[[nodiscard]] std::size_t utf8_length(std::string_view s, std::size_t i);
// The character at `s[i]` as graphql-js prints it in messages: "\"x\"", "U+0001", "<EOF>".
[[nodiscard]] std::string print_char(std::string_view s, std::size_t i);
// The spec's BlockStringValue: common indentation and blank first and last lines removed.
[[nodiscard]] std::string block_string_value(const std::string& raw);

}  // namespace storefront::graphql::detail
