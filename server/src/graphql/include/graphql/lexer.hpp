#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "graphql/errors.hpp"

namespace storefront::graphql {

enum class token_kind {
    eof,
    bang,
    dollar,
    amp,
    paren_l,
    paren_r,
    spread,
    colon,
    equals,
    at,
    bracket_l,
    bracket_r,
    brace_l,
    pipe,
    brace_r,
    name,
    int_value,
    float_value,
    string_value,
    block_string,
};

// One lexical token: for strings `value` holds the decoded text, for numbers and names the source text.
struct token {
    token_kind kind = token_kind::eof;
    std::string value;
    location where;
};

// How a token kind is written in graphql-js messages: "Name", "Int", "\"{\"", "<EOF>".
[[nodiscard]] std::string describe(token_kind kind);
// A token as graphql-js names it in "Expected X, found Y.": `Name "foo"`, `"{"`, `<EOF>`.
[[nodiscard]] std::string describe(const token& t);

// The whole document as tokens (comments, commas and white space dropped), ending with one eof token.
// Throws syntax_error on invalid UTF-8, a control character, a bad number, escape or string, or when the
// document has more than `max_tokens` tokens.
[[nodiscard]] std::vector<token> tokenize(std::string_view source, std::size_t max_tokens);

}  // namespace storefront::graphql
