#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "graphql/ast.hpp"

namespace storefront::graphql {

// Lists, input objects and list types nest at most this deep; selection sets at most twice as deep. Deeper
// input is a syntax error, so parsing recursion is bounded whatever the token limit.
inline constexpr std::size_t max_nesting = 100;

// An executable document. Type-system definitions are kept as `others` for validation to reject.
// Throws syntax_error ("Syntax Error: Expected Name, found <EOF>.") with the location.
[[nodiscard]] document parse_document(std::string_view source, std::size_t max_tokens);

// One argument or input field of a type-system definition.
using sdl_input_value = input_value_definition;
// A field (or, with no type, an enum value) of a type-system definition.
struct sdl_field {
    std::string name;
    std::vector<sdl_input_value> arguments;
    type_ref type;
    std::vector<directive> directives;
    location where;
};
struct sdl_type {
    using kind = type_kind;
    kind what = kind::scalar;
    std::string name;
    std::vector<std::string> interfaces;  // object and interface types
    std::vector<std::string> members;     // union types
    std::vector<sdl_field> fields;        // object and interface fields, enum values
    std::vector<sdl_input_value> input_fields;
    std::vector<directive> directives;
    location where;
};

// Type-system definitions (scalar, type, interface, union, enum, input; descriptions are skipped).
// Throws syntax_error.
[[nodiscard]] std::vector<sdl_type> parse_sdl(std::string_view source);

}  // namespace storefront::graphql
