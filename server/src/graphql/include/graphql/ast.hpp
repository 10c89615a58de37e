#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graphql/errors.hpp"

namespace storefront::graphql {

enum class operation_kind { query, mutation, subscription };

// The kinds of named types, as the type system defines them and introspection names them.
enum class type_kind { scalar, object, interface, union_type, enum_type, input_object };

// A type reference: a named type, a list of one, or a non-null one ("[Int!]!").

struct type_ref {
    enum class kind { named, list, non_null };
    kind wrap = kind::named;
    std::string name;                    // for named
    std::shared_ptr<const type_ref> of;  // for list and non_null
    location where;

    [[nodiscard]] static type_ref named_type(std::string name);
    [[nodiscard]] static type_ref list_of(type_ref inner);
    [[nodiscard]] static type_ref non_null_of(type_ref inner);
    // The innermost named type.
    [[nodiscard]] const std::string& base() const;
    [[nodiscard]] bool is_non_null() const { return wrap == kind::non_null; }
};
// The type as GraphQL writes it: "[Int!]!".
[[nodiscard]] std::string to_string(const type_ref& t);
[[nodiscard]] bool operator==(const type_ref& a, const type_ref& b);

struct object_field;

// A literal or variable in a document.
struct value {
    enum class kind { variable, int_number, float_number, string, boolean, null, enum_value, list, object };
    kind what = kind::null;
    std::string text;   // variable or enum name, number source text, decoded string
    bool flag = false;  // the boolean
    std::vector<value> items;
    std::vector<object_field> fields;
    location where;
};
struct object_field {
    std::string name;
    location where;
    value val;
};
// The value as GraphQL prints it: `{a: [1, "x"], b: $v}`.
[[nodiscard]] std::string to_string(const value& v);

struct argument {
    std::string name;
    location where;
    value val;
};

struct directive {
    std::string name;
    location where;
    std::vector<argument> arguments;
};

// A field, fragment spread (name = fragment) or inline fragment (type_condition may be empty).
struct selection {
    enum class kind { field, fragment_spread, inline_fragment };
    kind what = kind::field;
    std::string alias;  // empty: none
    std::string name;
    std::string type_condition;
    std::vector<argument> arguments;
    std::vector<directive> directives;
    std::vector<selection> selections;
    location where;

    // The key in the response: the alias, else the name.
    [[nodiscard]] const std::string& response_name() const { return alias.empty() ? name : alias; }
};

// A name with a type, an optional default and directives: an operation's variable ($name: Type = default)
// and a type-system argument or input field (name: Type = default) are written, parsed and kept alike.
struct input_value_definition {
    std::string name;
    type_ref type;
    std::optional<value> default_value;
    std::vector<directive> directives;
    location where;
};
using variable_definition = input_value_definition;

struct operation_definition {
    operation_kind kind = operation_kind::query;
    std::string name;  // empty: anonymous
    std::vector<variable_definition> variables;
    std::vector<directive> directives;
    std::vector<selection> selections;
    location where;
};

struct fragment_definition {
    std::string name;
    std::string type_condition;
    std::vector<directive> directives;
    std::vector<selection> selections;
    location where;
};

// A type-system definition found in an executable document (kept so validation can reject it).
struct other_definition {
    std::string name;
    location where;
};

// An executable document: definitions in source order per kind.
struct document {
    std::vector<operation_definition> operations;
    std::vector<fragment_definition> fragments;
    std::vector<other_definition> others;
};

}  // namespace storefront::graphql
