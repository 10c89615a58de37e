// Coercion of input values (JSON variables and literals) and serialisation of leaf values, with the
// wording graphql-js uses for each scalar; the validator and the executor share these rules.

#include "values.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <boost/json/serialize.hpp>

#include "json_text.hpp"

namespace storefront::graphql::detail {
namespace {

namespace json = boost::json;

std::string show(const json::value& v) {
    return json_text(v);
}

std::optional<std::int64_t> as_int32(const json::value& v) {
    std::int64_t n = 0;
    if (v.is_int64()) {
        n = v.get_int64();
    } else if (v.is_uint64()) {
        if (v.get_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
            return std::nullopt;
        }
        n = static_cast<std::int64_t>(v.get_uint64());
    } else if (v.is_double()) {
        const double d = v.get_double();
        if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 2147483648.0) {
            return std::nullopt;
        }
        n = static_cast<std::int64_t>(d);
    } else {
        return std::nullopt;
    }
    if (n < std::numeric_limits<std::int32_t>::min() || n > std::numeric_limits<std::int32_t>::max()) {
        return std::nullopt;
    }
    return n;
}

std::string int_problem(const json::value& v) {
    const bool integral =
        v.is_int64() || v.is_uint64() || (v.is_double() && std::floor(v.get_double()) == v.get_double());
    return integral ? "Int cannot represent non 32-bit signed integer value: " + show(v)
                    : "Int cannot represent non-integer value: " + show(v);
}

// Input coercion of one scalar or enum value (variables: JSON in, JSON out).
std::optional<json::value> coerce_leaf_input(const type_def& t, const json::value& v, std::string& reason) {
    if (t.kind == type_kind::enum_type) {
        if (!v.is_string()) {
            reason = "Enum \"" + t.name + "\" cannot represent non-string value: " + show(v) + ".";
            return std::nullopt;
        }
        if (t.enum_value(v.get_string()) == nullptr) {
            reason =
                "Value \"" + std::string(v.get_string()) + "\" does not exist in \"" + t.name + "\" enum.";
            return std::nullopt;
        }
        return v;
    }
    if (t.name == "Int") {
        if (auto n = as_int32(v)) {
            return json::value(*n);
        }
        reason = int_problem(v);
        return std::nullopt;
    }
    // A built-in scalar that takes `v` as it is when it `fits`, else refuses it: `refusal` and the value.
    const auto as_is = [&](bool fits, std::string_view refusal) -> std::optional<json::value> {
        if (fits) {
            return v;
        }
        reason = std::string(refusal) + show(v);
        return std::nullopt;
    };
    if (t.name == "Float") {
        return as_is(v.is_number(), "Float cannot represent non numeric value: ");
    }
    if (t.name == "String") {
        return as_is(v.is_string(), "String cannot represent a non string value: ");
    }
    if (t.name == "Boolean") {
        return as_is(v.is_bool(), "Boolean cannot represent a non boolean value: ");
    }
    if (t.name == "ID") {
        if (v.is_string()) {
            return v;
        }
        if (v.is_int64() || v.is_uint64()) {
            return json::value(show(v));
        }
        reason = "ID cannot represent value: " + show(v);
        return std::nullopt;
    }
    return v;  // custom scalars (DateTime) pass through
}

std::optional<json::value> coerce(
    const schema& s,
    const type_ref& type,
    const json::value& input,
    input_problem& problem,
    const std::string& path
) {
    const auto refuse = [&](std::string reason) -> std::optional<json::value> {
        problem = {show(input), path, std::move(reason)};
        return std::nullopt;
    };
    if (type.wrap == type_ref::kind::non_null) {
        if (input.is_null()) {
            return refuse("Expected non-nullable type \"" + to_string(type) + "\" not to be null.");
        }
        return coerce(s, *type.of, input, problem, path);
    }
    if (input.is_null()) {
        return json::value(nullptr);
    }
    if (type.wrap == type_ref::kind::list) {
        json::array out;
        if (!input.is_array()) {
            auto item = coerce(s, *type.of, input, problem, path);
            if (!item) {
                return std::nullopt;
            }
            out.push_back(std::move(*item));
            return json::value(std::move(out));
        }
        const auto& items = input.get_array();
        for (std::size_t i = 0; i < items.size(); ++i) {
            auto item = coerce(s, *type.of, items[i], problem, path + "[" + std::to_string(i) + "]");
            if (!item) {
                return std::nullopt;
            }
            out.push_back(std::move(*item));
        }
        return json::value(std::move(out));
    }
    const type_def* named = s.find_type(type.name);
    if (named->kind != type_kind::input_object) {
        std::string reason;
        auto out = coerce_leaf_input(*named, input, reason);
        if (!out) {
            return refuse(reason);
        }
        return out;
    }
    if (!input.is_object()) {
        return refuse("Expected type \"" + named->name + "\" to be an object.");
    }
    const auto& fields = input.get_object();
    json::object out;
    for (const auto& [key, v] : fields) {
        if (named->input_field(key) == nullptr) {
            return refuse(
                "Field \"" + std::string(key) + "\" is not defined by type \"" + named->name + "\"."
            );
        }
    }
    for (const auto& f : named->input_fields) {
        const auto* given = fields.if_contains(f.name);
        if (given == nullptr) {
            if (f.default_value) {
                std::string reason;
                if (auto d = coerce_literal(s, f.type, *f.default_value, {}, reason)) {
                    out[f.name] = std::move(*d);
                }
            } else if (f.type.is_non_null()) {
                return refuse(
                    "Field \"" + f.name + "\" of required type \"" + to_string(f.type) +
                    "\" was not provided."
                );
            }
            continue;
        }
        auto v = coerce(s, f.type, *given, problem, path + "." + f.name);
        if (!v) {
            return std::nullopt;
        }
        out[f.name] = std::move(*v);
    }
    return json::value(std::move(out));
}

// A literal as the JSON a variable of the same value would have been (for custom scalars and enums).
json::value literal_json(const value& v, const json::object& variables) {
    switch (v.what) {
        case value::kind::variable: {
            const auto* given = variables.if_contains(v.text);
            return given == nullptr ? json::value(nullptr) : *given;
        }
        case value::kind::int_number: {
            std::int64_t n = 0;
            const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
            if (ec == std::errc{} && end == v.text.data() + v.text.size()) {
                return json::value(n);
            }
            return json::value(std::strtod(v.text.c_str(), nullptr));
        }
        case value::kind::float_number:
            return json::value(std::strtod(v.text.c_str(), nullptr));
        case value::kind::string:
        case value::kind::enum_value:
            return json::value(v.text);
        case value::kind::boolean:
            return json::value(v.flag);
        case value::kind::null:
            return json::value(nullptr);
        case value::kind::list: {
            json::array out;
            for (const auto& item : v.items) {
                out.push_back(literal_json(item, variables));
            }
            return out;
        }
        case value::kind::object: {
            json::object out;
            for (const auto& f : v.fields) {
                out[f.name] = literal_json(f.val, variables);
            }
            return out;
        }
    }
    return nullptr;
}

}  // namespace

std::optional<json::value> coerce_input(
    const schema& s, const type_ref& type, const json::value& input, input_problem& problem
) {
    return coerce(s, type, input, problem, "");
}

std::optional<json::value> coerce_literal(
    const schema& s,
    const type_ref& type,
    const value& literal,
    const json::object& variables,
    std::string& reason
) {
    if (literal.what == value::kind::variable) {
        const auto* given = variables.if_contains(literal.text);
        if (given == nullptr || given->is_null()) {
            if (type.is_non_null()) {
                reason =
                    "Expected value of type \"" + to_string(type) + "\", found " + to_string(literal) + ".";
                return std::nullopt;
            }
            return json::value(nullptr);
        }
        return *given;  // coerced to the variable's type already, which validation matched to this position
    }
    if (type.wrap == type_ref::kind::non_null) {
        if (literal.what == value::kind::null) {
            reason = "Expected value of type \"" + to_string(type) + "\", found null.";
            return std::nullopt;
        }
        return coerce_literal(s, *type.of, literal, variables, reason);
    }
    if (literal.what == value::kind::null) {
        return json::value(nullptr);
    }
    if (type.wrap == type_ref::kind::list) {
        json::array out;
        if (literal.what != value::kind::list) {
            auto item = coerce_literal(s, *type.of, literal, variables, reason);
            if (!item) {
                return std::nullopt;
            }
            out.push_back(std::move(*item));
            return json::value(std::move(out));
        }
        for (const auto& item : literal.items) {
            auto v = coerce_literal(s, *type.of, item, variables, reason);
            if (!v) {
                return std::nullopt;
            }
            out.push_back(std::move(*v));
        }
        return json::value(std::move(out));
    }
    const type_def* named = s.find_type(type.name);
    const auto mismatch = [&]() -> std::optional<json::value> {
        reason = "Expected value of type \"" + to_string(type) + "\", found " + to_string(literal) + ".";
        return std::nullopt;
    };
    if (named == nullptr) {
        return mismatch();
    }
    if (named->kind == type_kind::input_object) {
        if (literal.what != value::kind::object) {
            return mismatch();
        }
        json::object out;
        for (const auto& f : literal.fields) {
            if (named->input_field(f.name) == nullptr) {
                reason = "Field \"" + f.name + "\" is not defined by type \"" + named->name + "\".";
                return std::nullopt;
            }
        }
        for (const auto& def : named->input_fields) {
            const value* given = nullptr;
            for (const auto& f : literal.fields) {
                if (f.name == def.name) {
                    given = &f.val;
                }
            }
            const bool absent_variable =
                given != nullptr && given->what == value::kind::variable && !variables.contains(given->text);
            if (given == nullptr || absent_variable) {
                if (def.default_value) {
                    given = &*def.default_value;
                } else if (def.type.is_non_null()) {
                    reason = "Field \"" + named->name + "." + def.name + "\" of required type \"" +
                             to_string(def.type) + "\" was not provided.";
                    return std::nullopt;
                } else {
                    continue;
                }
            }
            auto v = coerce_literal(s, def.type, *given, variables, reason);
            if (!v) {
                return std::nullopt;
            }
            out[def.name] = std::move(*v);
        }
        return json::value(std::move(out));
    }
    // Leaves: the literal's kind must fit the scalar (a string is no Int, an enum name no String).
    const bool is_enum = named->kind == type_kind::enum_type;
    const bool custom = !is_enum && named->builtin == false;
    const auto k = literal.what;
    bool fits = custom || (is_enum && k == value::kind::enum_value);
    if (!is_enum && !custom) {
        const std::string& n = named->name;
        fits = (n == "Int" && k == value::kind::int_number) ||
               (n == "Float" && (k == value::kind::int_number || k == value::kind::float_number)) ||
               (n == "String" && k == value::kind::string) || (n == "Boolean" && k == value::kind::boolean) ||
               (n == "ID" && (k == value::kind::string || k == value::kind::int_number));
    }
    if (!fits || k == value::kind::list || k == value::kind::object) {
        if (!custom) {
            return mismatch();
        }
    }
    std::string leaf_reason;
    auto out = coerce_leaf_input(*named, literal_json(literal, variables), leaf_reason);
    if (!out) {
        return mismatch();
    }
    return out;
}

std::optional<json::value> serialize_leaf(const type_def& t, const json::value& v, std::string& reason) {
    if (t.kind == type_kind::enum_type) {
        if (v.is_string() && t.enum_value(v.get_string()) != nullptr) {
            return v;
        }
        reason = "Enum \"" + t.name + "\" cannot represent value: " + show(v);
        return std::nullopt;
    }
    if (!t.builtin) {
        return v;
    }
    const std::string& n = t.name;
    if (n == "Int") {
        if (v.is_bool()) {
            return json::value(v.get_bool() ? 1 : 0);
        }
        if (auto i = as_int32(v)) {
            return json::value(*i);
        }
        reason = int_problem(v);
        return std::nullopt;
    }
    if (n == "Float") {
        if (v.is_int64() || v.is_uint64() || (v.is_double() && std::isfinite(v.get_double()))) {
            return v;
        }
        reason = "Float cannot represent non numeric value: " + show(v);
        return std::nullopt;
    }
    if (n == "String" || n == "ID") {
        if (v.is_string()) {
            return v;
        }
        if (v.is_int64() || v.is_uint64() || (n == "String" && (v.is_double() || v.is_bool()))) {
            return json::value(show(v));
        }
        reason = n + " cannot represent value: " + show(v);
        return std::nullopt;
    }
    if (n == "Boolean") {
        if (v.is_bool()) {
            return v;
        }
        reason = "Boolean cannot represent a non boolean value: " + show(v);
        return std::nullopt;
    }
    return v;
}

}  // namespace storefront::graphql::detail
