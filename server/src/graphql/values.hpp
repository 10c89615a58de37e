#pragma once

#include <optional>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "graphql/schema.hpp"

// Input coercion (literals and JSON variables) and leaf serialisation, shared by the validator and executor.
namespace storefront::graphql::detail {

// Why an input value was refused: the offending (sub)value printed as JSON, the path below the variable
// (".price", "[2]"), and the reason in graphql-js wording.
struct input_problem {
    std::string value_text;
    std::string path;
    std::string reason;
};

// A JSON variable value coerced to `type` (list wrapping of single values, enums, ID as string), or nullopt
// with `problem` set.
[[nodiscard]] std::optional<boost::json::value> coerce_input(
    const schema& s, const type_ref& type, const boost::json::value& input, input_problem& problem
);

// A literal coerced to `type`, variables read from `variables` (coerced already; an absent variable is null
// in a list and an omitted field in an object). nullopt with `reason` when the literal does not fit (the
// validator reports these before execution).
[[nodiscard]] std::optional<boost::json::value> coerce_literal(
    const schema& s,
    const type_ref& type,
    const value& literal,
    const boost::json::object& variables,
    std::string& reason
);

// A resolver's value for a leaf type serialised (Int within 32 bits, ID as a string, enum values of the
// enum), or nullopt with `reason` ("Int cannot represent non 32-bit signed integer value: 3000000000").
[[nodiscard]] std::optional<boost::json::value> serialize_leaf(
    const type_def& type, const boost::json::value& v, std::string& reason
);

}  // namespace storefront::graphql::detail
