// Introspection (spec section 4): __schema and __type answered from the schema's type table, with the
// same shapes graphql-js gives (built-in scalars and directives included), so GraphiQL and codegen work.

#include "introspection.hpp"

#include <boost/json/array.hpp>

#include "core/enum_names.hpp"

namespace storefront::graphql::detail {
namespace {

namespace json = boost::json;

// The __TypeKind of each kind of named type.
constexpr core::enum_name<type_kind> kind_names[] = {
    {type_kind::scalar, "SCALAR"},
    {type_kind::object, "OBJECT"},
    {type_kind::interface, "INTERFACE"},
    {type_kind::union_type, "UNION"},
    {type_kind::enum_type, "ENUM"},
    {type_kind::input_object, "INPUT_OBJECT"},
};

std::string_view kind_name(type_kind k) {
    return core::name_of_each<type_kind::input_object>(kind_names, k, "SCALAR");
}

json::value type_value(const type_ref& t) {
    switch (t.wrap) {
        case type_ref::kind::named:
            return json::object{{"name", t.name}};
        case type_ref::kind::list:
            return json::object{{"kind", "LIST"}, {"ofType", type_value(*t.of)}};
        case type_ref::kind::non_null:
            return json::object{{"kind", "NON_NULL"}, {"ofType", type_value(*t.of)}};
    }
    return nullptr;
}

json::value deprecation(const std::optional<std::string>& reason) {
    return reason ? json::value(*reason) : json::value(nullptr);
}

json::object input_value(const input_value_def& v) {
    return {
        {"name", v.name},
        {"description", nullptr},
        {"type", type_value(v.type)},
        {"defaultValue", v.default_value ? json::value(to_string(*v.default_value)) : json::value(nullptr)},
        {"isDeprecated", v.deprecation.has_value()},
        {"deprecationReason", deprecation(v.deprecation)},
    };
}

// `items` as introspection objects made by `describe`, the deprecated ones only when `include_deprecated`:
// fields, enum values, arguments and input fields are filtered alike.
template <class Item, class Describe>
json::array described(const std::vector<Item>& items, bool include_deprecated, Describe describe) {
    json::array out;
    for (const auto& item : items) {
        if (include_deprecated || !item.deprecation) {
            out.push_back(describe(item));
        }
    }
    return out;
}

json::array input_values(const std::vector<input_value_def>& values, bool include_deprecated) {
    return described(values, include_deprecated, input_value);
}

bool include_deprecated(const resolve_info& info) {
    const auto* flag = info.arguments.if_contains("includeDeprecated");
    return flag != nullptr && flag->is_bool() && flag->get_bool();
}

json::value type_field(const schema& s, const resolve_info& info) {
    const auto& parent = info.parent.as_object();
    const std::string_view field = info.field_name;
    if (const auto* kind = parent.if_contains("kind")) {
        if (field == "kind") {
            return *kind;
        }
        if (field == "ofType") {
            return parent.at("ofType");
        }
        return nullptr;
    }
    const type_def* t = s.find_type(parent.at("name").as_string());
    if (t == nullptr) {
        return nullptr;
    }
    const bool with_deprecated = include_deprecated(info);
    if (field == "kind") {
        return json::value(kind_name(t->kind));
    }
    if (field == "name") {
        return json::value(t->name);
    }
    if (field == "specifiedByURL") {
        return t->specified_by.empty() ? json::value(nullptr) : json::value(t->specified_by);
    }
    if (field == "fields" && (t->kind == type_kind::object || t->kind == type_kind::interface)) {
        return described(t->fields, with_deprecated, [](const field_def& f) {
            return json::object{
                {"name", f.name},
                {"description", nullptr},
                {"args", input_values(f.arguments, true)},
                {"type", type_value(f.type)},
                {"isDeprecated", f.deprecation.has_value()},
                {"deprecationReason", deprecation(f.deprecation)},
            };
        });
    }
    if (field == "interfaces" && (t->kind == type_kind::object || t->kind == type_kind::interface)) {
        json::array out;
        for (const auto& i : t->interfaces) {
            out.push_back(json::object{{"name", i}});
        }
        return out;
    }
    if (field == "possibleTypes" && (t->kind == type_kind::interface || t->kind == type_kind::union_type)) {
        json::array out;
        for (const auto& candidate : s.types()) {
            if (candidate.kind == type_kind::object && s.is_possible(*t, candidate)) {
                out.push_back(json::object{{"name", candidate.name}});
            }
        }
        return out;
    }
    if (field == "enumValues" && t->kind == type_kind::enum_type) {
        return described(t->values, with_deprecated, [](const enum_value_def& v) {
            return json::object{
                {"name", v.name},
                {"description", nullptr},
                {"isDeprecated", v.deprecation.has_value()},
                {"deprecationReason", deprecation(v.deprecation)},
            };
        });
    }
    if (field == "inputFields" && t->kind == type_kind::input_object) {
        return input_values(t->input_fields, with_deprecated);
    }
    if (field == "isOneOf" && t->kind == type_kind::input_object) {
        return json::value(false);
    }
    return nullptr;
}

json::value schema_field(const schema& s, std::string_view field) {
    if (field == "types") {
        json::array out;
        for (const auto& t : s.types()) {
            out.push_back(json::object{{"name", t.name}});
        }
        return out;
    }
    if (field == "queryType") {
        return json::object{{"name", s.root(operation_kind::query)->name}};
    }
    if (field == "mutationType") {
        const type_def* m = s.root(operation_kind::mutation);
        return m == nullptr ? json::value(nullptr) : json::value(json::object{{"name", m->name}});
    }
    if (field == "directives") {
        json::array out;
        for (const auto& d : s.directives()) {
            json::array locations;
            for (const auto& l : d.locations) {
                locations.push_back(json::value(l));
            }
            out.push_back(json::object{
                {"name", d.name},
                {"description", nullptr},
                {"isRepeatable", d.repeatable},
                {"locations", std::move(locations)},
                {"args", input_values(d.arguments, true)},
            });
        }
        return out;
    }
    return nullptr;  // description, subscriptionType
}

}  // namespace

bool is_introspection_field(std::string_view parent_type, std::string_view field_name) {
    return parent_type == "__Schema" || parent_type == "__Type" || field_name == "__schema" ||
           field_name == "__type";
}

resolved resolve_introspection(const schema& s, const resolve_info& info) {
    if (info.field_name == "__schema") {
        return resolved::ok(json::object{});
    }
    if (info.field_name == "__type") {
        const type_def* t = s.find_type(info.arguments.at("name").as_string());
        return resolved::ok(
            t == nullptr ? json::value(nullptr) : json::value(json::object{{"name", t->name}})
        );
    }
    if (info.parent_type == "__Schema") {
        return resolved::ok(schema_field(s, info.field_name));
    }
    return resolved::ok(type_field(s, info));
}

}  // namespace storefront::graphql::detail
