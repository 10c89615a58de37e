#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "graphql/ast.hpp"
#include "graphql/errors.hpp"

namespace storefront::graphql {

// What a resolver returns: a value, or an error for this field (the executor adds locations and path,
// and applies null propagation per the spec).
struct resolved {
    boost::json::value value;      // JSON null for null
    std::optional<error> failure;  // set: the field errored (value ignored)
    // A successful value.
    [[nodiscard]] static resolved ok(boost::json::value v);
    // A field error with extensions.code `code` and further extension members.
    [[nodiscard]] static resolved fail(
        std::string message, std::string code, boost::json::object extensions = {}
    );
};

// What a resolver sees.
struct resolve_info {
    const boost::json::value& parent;  // the parent object's resolved value (null for root fields)
    const boost::json::object&
        arguments;  // coerced argument values; arguments not given (and without default) are absent
    std::string_view field_name;
    std::string_view parent_type;
    void* context;  // the pointer given to execute()
};
using resolver = std::function<resolved(const resolve_info&)>;

// An argument or input field: its type, its default (as a literal) and its deprecation reason.
struct input_value_def {
    std::string name;
    type_ref type;
    std::optional<value> default_value;
    std::optional<std::string> deprecation;
};

struct field_def {
    std::string name;
    std::vector<input_value_def> arguments;
    type_ref type;
    std::optional<std::string> deprecation;
    resolver fn;  // empty: the default resolver (parent[name])
    // The argument called `name`, or null.
    [[nodiscard]] const input_value_def* argument(std::string_view name) const;
};

struct enum_value_def {
    std::string name;
    std::optional<std::string> deprecation;
};

// A named type of the schema (built-in scalars and introspection types included, marked `builtin`).
struct type_def {
    type_kind kind = type_kind::scalar;
    std::string name;
    bool builtin = false;
    std::string specified_by;
    std::vector<std::string> interfaces;  // object and interface types
    std::vector<std::string> members;     // union types
    std::vector<field_def> fields;
    std::vector<input_value_def> input_fields;
    std::vector<enum_value_def> values;

    // The field, input field or enum value called `name`, or null.
    [[nodiscard]] const field_def* field(std::string_view name) const;
    [[nodiscard]] const input_value_def* input_field(std::string_view name) const;
    [[nodiscard]] const enum_value_def* enum_value(std::string_view name) const;
    [[nodiscard]] bool is_composite() const {
        return kind == type_kind::object || kind == type_kind::interface || kind == type_kind::union_type;
    }
    [[nodiscard]] bool is_leaf() const { return kind == type_kind::scalar || kind == type_kind::enum_type; }
    [[nodiscard]] bool is_input() const { return is_leaf() || kind == type_kind::input_object; }
};

// A directive the executor knows (include, skip, deprecated, specifiedBy).
struct directive_def {
    std::string name;
    std::vector<input_value_def> arguments;
    std::vector<std::string> locations;  // __DirectiveLocation names
    bool repeatable = false;
    // Whether the directive may appear at `location` ("FIELD", "QUERY", ...).
    [[nodiscard]] bool allowed_at(std::string_view location) const;
};

class schema final {
  public:
    // Parses SDL (scalar/type/input/enum definitions; types named Query and Mutation are the roots).
    // Throws std::invalid_argument with a message on a malformed SDL (it is program text, not client input).
    static schema from_sdl(std::string_view sdl);
    // Field `type_name.field_name` is computed by `fn`; fields without one read parent[field_name]
    // (the default resolver; a missing member is null). Throws std::invalid_argument for an unknown field.
    void resolve(std::string_view type_name, std::string_view field_name, resolver fn);
    // The schema printed as SDL, in definition order, like graphql-js printSchema (descriptions none).
    [[nodiscard]] const std::string& sdl() const;

    // The named type, or null.
    [[nodiscard]] const type_def* find_type(std::string_view name) const;
    // Every named type: the SDL's in definition order, then built-in scalars, then introspection types.
    [[nodiscard]] const std::vector<type_def>& types() const { return types_; }
    // A field of `parent` including __typename (any composite type) and __schema/__type (query root), or
    // null.
    [[nodiscard]] const field_def* find_field(const type_def& parent, std::string_view name) const;
    [[nodiscard]] const directive_def* find_directive(std::string_view name) const;
    [[nodiscard]] const std::vector<directive_def>& directives() const { return directives_; }
    // The root type of an operation kind, or null (there is never a subscription root).
    [[nodiscard]] const type_def* root(operation_kind kind) const;
    // Whether an object of type `object` can be a value of `abstract` (the same type, an implemented
    // interface, a union member).
    [[nodiscard]] bool is_possible(const type_def& abstract, const type_def& object) const;
    // Whether some object type is possible in both.
    [[nodiscard]] bool overlap(const type_def& a, const type_def& b) const;
    // Whether the type reference names an input type (scalar, enum, input object).
    [[nodiscard]] bool is_input(const type_ref& t) const;

  private:
    schema() = default;
    void add(type_def type);
    void print();

    std::vector<type_def> types_;
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<directive_def> directives_;
    std::string sdl_;
    field_def typename_field_;
    field_def schema_field_;
    field_def type_field_;
};

}  // namespace storefront::graphql
