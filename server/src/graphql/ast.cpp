// Helpers of the document tree: building and printing type references, printing values as GraphQL
// writes them (for validation messages and introspection's defaultValue).

#include "graphql/ast.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

namespace storefront::graphql {

type_ref type_ref::named_type(std::string name) {
    type_ref t;
    t.name = std::move(name);
    return t;
}

type_ref type_ref::list_of(type_ref inner) {
    type_ref t;
    t.wrap = kind::list;
    t.of = std::make_shared<const type_ref>(std::move(inner));
    return t;
}

type_ref type_ref::non_null_of(type_ref inner) {
    type_ref t;
    t.wrap = kind::non_null;
    t.of = std::make_shared<const type_ref>(std::move(inner));
    return t;
}

const std::string& type_ref::base() const {
    const type_ref* t = this;
    while (t->wrap != kind::named) {
        t = t->of.get();
    }
    return t->name;
}

std::string to_string(const type_ref& t) {
    switch (t.wrap) {
        case type_ref::kind::named:
            return t.name;
        case type_ref::kind::list:
            return "[" + to_string(*t.of) + "]";
        case type_ref::kind::non_null:
            return to_string(*t.of) + "!";
    }
    return {};
}

bool operator==(const type_ref& a, const type_ref& b) {
    if (a.wrap != b.wrap) {
        return false;
    }
    return a.wrap == type_ref::kind::named ? a.name == b.name : *a.of == *b.of;
}

std::string to_string(const value& v) {
    switch (v.what) {
        case value::kind::variable:
            return "$" + v.text;
        case value::kind::int_number:
        case value::kind::float_number:
        case value::kind::enum_value:
            return v.text;
        case value::kind::string:
            return boost::json::serialize(boost::json::string(v.text));
        case value::kind::boolean:
            return v.flag ? "true" : "false";
        case value::kind::null:
            return "null";
        case value::kind::list: {
            std::string out = "[";
            for (std::size_t i = 0; i < v.items.size(); ++i) {
                out += (i == 0 ? "" : ", ") + to_string(v.items[i]);
            }
            return out + "]";
        }
        case value::kind::object: {
            std::string out = "{";
            for (std::size_t i = 0; i < v.fields.size(); ++i) {
                out += (i == 0 ? "" : ", ") + v.fields[i].name + ": " + to_string(v.fields[i].val);
            }
            return out + "}";
        }
    }
    return {};
}

}  // namespace storefront::graphql
