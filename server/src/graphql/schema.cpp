// The type system built from SDL text: user types, built-in scalars and directives, the introspection
// types (introspection.cpp's SDL), resolvers per field, lookups for the validator and executor, and printing.

#include "graphql/schema.hpp"

#include <stdexcept>

#include "graphql/parser.hpp"
#include "introspection_sdl.hpp"

namespace storefront::graphql {
namespace {

std::optional<std::string> deprecation_of(const std::vector<directive>& directives) {
    for (const auto& d : directives) {
        if (d.name == "deprecated") {
            for (const auto& a : d.arguments) {
                if (a.name == "reason" && a.val.what == value::kind::string) {
                    return a.val.text;
                }
            }
            return std::string("No longer supported");
        }
    }
    return std::nullopt;
}

input_value_def input_value_of(const sdl_input_value& v) {
    return {v.name, v.type, v.default_value, deprecation_of(v.directives)};
}

type_def type_of(const sdl_type& t) {
    type_def out;
    out.name = t.name;
    out.interfaces = t.interfaces;
    out.members = t.members;
    out.kind = t.what;
    for (const auto& d : t.directives) {
        if (d.name == "specifiedBy" && !d.arguments.empty()) {
            out.specified_by = d.arguments[0].val.text;
        }
    }
    for (const auto& f : t.fields) {
        if (out.kind == type_kind::enum_type) {
            out.values.push_back({f.name, deprecation_of(f.directives)});
            continue;
        }
        field_def field{f.name, {}, f.type, deprecation_of(f.directives), {}};
        for (const auto& a : f.arguments) {
            field.arguments.push_back(input_value_of(a));
        }
        out.fields.push_back(std::move(field));
    }
    for (const auto& v : t.input_fields) {
        out.input_fields.push_back(input_value_of(v));
    }
    return out;
}

template <class Items>
auto find_named(const Items& items, std::string_view name) -> decltype(&items.front()) {
    for (const auto& item : items) {
        if (item.name == name) {
            return &item;
        }
    }
    return nullptr;
}

input_value_def required_boolean(const char* name) {
    return {name, type_ref::non_null_of(type_ref::named_type("Boolean")), std::nullopt, std::nullopt};
}

void print_deprecation(std::string& out, const std::optional<std::string>& reason) {
    if (!reason) {
        return;
    }
    out += " @deprecated";
    if (*reason != "No longer supported") {
        value text;
        text.what = value::kind::string;
        text.text = *reason;
        out += "(reason: " + to_string(text) + ")";
    }
}

void print_input_value(std::string& out, const input_value_def& v) {
    out += v.name + ": " + to_string(v.type);
    if (v.default_value) {
        out += " = " + to_string(*v.default_value);
    }
    print_deprecation(out, v.deprecation);
}

}  // namespace

resolved resolved::ok(boost::json::value v) {
    return {std::move(v), std::nullopt};
}

resolved resolved::fail(std::string message, std::string code, boost::json::object extensions) {
    return {nullptr, error{std::move(message), {}, {}, std::move(code), std::move(extensions)}};
}

const input_value_def* field_def::argument(std::string_view name) const {
    return find_named(arguments, name);
}
const field_def* type_def::field(std::string_view name) const {
    return find_named(fields, name);
}
const input_value_def* type_def::input_field(std::string_view name) const {
    return find_named(input_fields, name);
}
const enum_value_def* type_def::enum_value(std::string_view name) const {
    return find_named(values, name);
}

bool directive_def::allowed_at(std::string_view location) const {
    for (const auto& l : locations) {
        if (l == location) {
            return true;
        }
    }
    return false;
}

void schema::add(type_def type) {
    if (index_.count(type.name) != 0) {
        throw std::invalid_argument("schema: type \"" + type.name + "\" is defined twice");
    }
    index_.emplace(type.name, types_.size());
    types_.push_back(std::move(type));
}

schema schema::from_sdl(std::string_view sdl) {
    schema out;
    std::vector<sdl_type> parsed;
    try {
        parsed = parse_sdl(sdl);
    } catch (const syntax_error& e) {
        throw std::invalid_argument(
            "schema: " + std::string(e.what()) + " (line " + std::to_string(e.where().line) + ", column " +
            std::to_string(e.where().column) + ")"
        );
    }
    for (const auto& t : parsed) {
        out.add(type_of(t));
    }
    for (const char* name : {"String", "Int", "Float", "Boolean", "ID"}) {
        if (out.find_type(name) == nullptr) {
            type_def scalar;
            scalar.name = name;
            scalar.builtin = true;
            out.add(std::move(scalar));
        }
    }
    for (const auto& t : parse_sdl(introspection_sdl)) {
        type_def type = type_of(t);
        type.builtin = true;
        out.add(std::move(type));
    }
    const auto check = [&](const type_ref& ref, bool input, const std::string& where) {
        const type_def* named = out.find_type(ref.base());
        if (named == nullptr) {
            throw std::invalid_argument("schema: unknown type \"" + ref.base() + "\" in " + where);
        }
        if (input ? !named->is_input() : named->kind == type_kind::input_object) {
            throw std::invalid_argument("schema: \"" + ref.base() + "\" cannot be used in " + where);
        }
    };
    for (const auto& t : out.types_) {
        for (const auto& f : t.fields) {
            check(f.type, false, t.name + "." + f.name);
            for (const auto& a : f.arguments) {
                check(a.type, true, t.name + "." + f.name + "(" + a.name + ")");
            }
        }
        for (const auto& f : t.input_fields) {
            check(f.type, true, t.name + "." + f.name);
        }
    }
    const type_def* query = out.find_type("Query");
    if (query == nullptr || query->kind != type_kind::object) {
        throw std::invalid_argument("schema: no object type Query");
    }
    out.directives_ = {
        {"include", {required_boolean("if")}, {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"}, false},
        {"skip", {required_boolean("if")}, {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"}, false},
        {"deprecated",
         {{"reason",
           type_ref::named_type("String"),
           parse_document("{f(a:\"No longer supported\")}", 20).operations[0].selections[0].arguments[0].val,
           std::nullopt}},
         {"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE"},
         false},
        {"specifiedBy",
         {{"url", type_ref::non_null_of(type_ref::named_type("String")), std::nullopt, std::nullopt}},
         {"SCALAR"},
         false},
    };
    out.typename_field_ = {"__typename", {}, type_ref::non_null_of(type_ref::named_type("String")), {}, {}};
    out.schema_field_ = {"__schema", {}, type_ref::non_null_of(type_ref::named_type("__Schema")), {}, {}};
    out.type_field_ = {
        "__type",
        {{"name", type_ref::non_null_of(type_ref::named_type("String")), std::nullopt, std::nullopt}},
        type_ref::named_type("__Type"),
        {},
        {}};
    out.print();
    return out;
}

void schema::resolve(std::string_view type_name, std::string_view field_name, resolver fn) {
    const auto it = index_.find(std::string(type_name));
    field_def* field = nullptr;
    if (it != index_.end()) {
        for (auto& f : types_[it->second].fields) {
            if (f.name == field_name) {
                field = &f;
            }
        }
    }
    if (field == nullptr) {
        throw std::invalid_argument(
            "schema: no field " + std::string(type_name) + "." + std::string(field_name) + " to resolve"
        );
    }
    field->fn = std::move(fn);
}

const std::string& schema::sdl() const {
    return sdl_;
}

const type_def* schema::find_type(std::string_view name) const {
    const auto it = index_.find(std::string(name));
    return it == index_.end() ? nullptr : &types_[it->second];
}

const field_def* schema::find_field(const type_def& parent, std::string_view name) const {
    if (name == "__typename" && parent.is_composite()) {
        return &typename_field_;
    }
    if (&parent == root(operation_kind::query)) {
        if (name == "__schema") {
            return &schema_field_;
        }
        if (name == "__type") {
            return &type_field_;
        }
    }
    return parent.kind == type_kind::object || parent.kind == type_kind::interface ? parent.field(name)
                                                                                   : nullptr;
}

const directive_def* schema::find_directive(std::string_view name) const {
    return find_named(directives_, name);
}

const type_def* schema::root(operation_kind kind) const {
    switch (kind) {
        case operation_kind::query:
            return find_type("Query");
        case operation_kind::mutation: {
            const type_def* t = find_type("Mutation");
            return t != nullptr && t->kind == type_kind::object ? t : nullptr;
        }
        case operation_kind::subscription:
            return nullptr;
    }
    return nullptr;
}

bool schema::is_possible(const type_def& abstract, const type_def& object) const {
    if (&abstract == &object) {
        return true;
    }
    const auto& names =
        abstract.kind == type_kind::union_type ? abstract.members : std::vector<std::string>{};
    if (abstract.kind == type_kind::union_type) {
        for (const auto& m : names) {
            if (m == object.name) {
                return true;
            }
        }
    }
    if (abstract.kind == type_kind::interface) {
        for (const auto& i : object.interfaces) {
            if (i == abstract.name) {
                return true;
            }
        }
    }
    return false;
}

bool schema::overlap(const type_def& a, const type_def& b) const {
    if (&a == &b) {
        return true;
    }
    for (const auto& t : types_) {
        if (t.kind == type_kind::object && is_possible(a, t) && is_possible(b, t)) {
            return true;
        }
    }
    return false;
}

bool schema::is_input(const type_ref& t) const {
    const type_def* named = find_type(t.base());
    return named != nullptr && named->is_input();
}

void schema::print() {
    sdl_.clear();
    for (const auto& t : types_) {
        if (t.builtin) {
            continue;
        }
        if (!sdl_.empty()) {
            sdl_ += "\n\n";
        }
        switch (t.kind) {
            case type_kind::scalar:
                sdl_ += "scalar " + t.name;
                if (!t.specified_by.empty()) {
                    value url;
                    url.what = value::kind::string;
                    url.text = t.specified_by;
                    sdl_ += " @specifiedBy(url: " + to_string(url) + ")";
                }
                continue;
            case type_kind::union_type:
                sdl_ += "union " + t.name + " =";
                for (std::size_t i = 0; i < t.members.size(); ++i) {
                    sdl_ += (i == 0 ? " " : " | ") + t.members[i];
                }
                continue;
            case type_kind::enum_type:
                sdl_ += "enum " + t.name + " {";
                for (const auto& v : t.values) {
                    sdl_ += "\n  " + v.name;
                    print_deprecation(sdl_, v.deprecation);
                }
                sdl_ += "\n}";
                continue;
            case type_kind::input_object:
                sdl_ += "input " + t.name + " {";
                for (const auto& f : t.input_fields) {
                    sdl_ += "\n  ";
                    print_input_value(sdl_, f);
                }
                sdl_ += "\n}";
                continue;
            case type_kind::object:
            case type_kind::interface:
                break;
        }
        sdl_ += (t.kind == type_kind::object ? "type " : "interface ") + t.name;
        for (std::size_t i = 0; i < t.interfaces.size(); ++i) {
            sdl_ += (i == 0 ? " implements " : " & ") + t.interfaces[i];
        }
        sdl_ += " {";
        for (const auto& f : t.fields) {
            sdl_ += "\n  " + f.name;
            if (!f.arguments.empty()) {
                sdl_ += "(";
                for (std::size_t i = 0; i < f.arguments.size(); ++i) {
                    sdl_ += i == 0 ? "" : ", ";
                    print_input_value(sdl_, f.arguments[i]);
                }
                sdl_ += ")";
            }
            sdl_ += ": " + to_string(f.type);
            print_deprecation(sdl_, f.deprecation);
        }
        sdl_ += "\n}";
    }
}

}  // namespace storefront::graphql
