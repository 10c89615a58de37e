// The walk over one definition: fields on their types, arguments and their values, directives,
// fragment spreads and inline fragments; it records spreads and variable usages for validator.cpp.

#include <algorithm>
#include <set>

#include "validator_state.hpp"
#include "values.hpp"

namespace storefront::graphql::detail {

void validator::variable_definitions(const operation_definition& op) {
    std::set<std::string> names;
    for (const auto& v : op.variables) {
        if (!names.insert(v.name).second) {
            fail("There can be only one variable named \"$" + v.name + "\".", {v.where});
        }
        const type_def* t = s_.find_type(v.type.base());
        if (t == nullptr) {
            fail("Unknown type \"" + v.type.base() + "\".", {v.type.where});
        } else if (!t->is_input()) {
            fail(
                "Variable \"$" + v.name + "\" cannot be non-input type \"" + to_string(v.type) + "\".",
                {v.type.where}
            );
        } else if (v.default_value) {
            literal(&v.type, *v.default_value, false);
        }
        directives(v.directives, "VARIABLE_DEFINITION");
    }
}

void validator::directives(const std::vector<directive>& list, std::string_view where) {
    std::set<std::string> seen;
    for (const auto& d : list) {
        const directive_def* def = s_.find_directive(d.name);
        if (def == nullptr) {
            fail("Unknown directive \"@" + d.name + "\".", {d.where});
            arguments(d.arguments, nullptr, "");
            continue;
        }
        if (!def->allowed_at(where)) {
            fail("Directive \"@" + d.name + "\" may not be used on " + std::string(where) + ".", {d.where});
        }
        if (!def->repeatable && !seen.insert(d.name).second) {
            fail("The directive \"@" + d.name + "\" can only be used once at this location.", {d.where});
        }
        arguments(d.arguments, &def->arguments, "directive \"@" + d.name + "\"");
        for (const auto& a : def->arguments) {
            if (a.type.is_non_null() && !a.default_value && !given(d.arguments, a.name)) {
                fail(
                    "Directive \"@" + d.name + "\" argument \"" + a.name + "\" of type \"" +
                        to_string(a.type) + "\" is required, but it was not provided.",
                    {d.where}
                );
            }
        }
    }
}

bool validator::given(const std::vector<argument>& args, const std::string& name) {
    return std::any_of(args.begin(), args.end(), [&](const argument& a) { return a.name == name; });
}

// Known, unique argument names, and their values; `owner` names the field or directive in messages.
void validator::arguments(
    const std::vector<argument>& args, const std::vector<input_value_def>* defs, const std::string& owner
) {
    std::set<std::string> seen;
    for (const auto& a : args) {
        if (!seen.insert(a.name).second) {
            fail("There can be only one argument named \"" + a.name + "\".", {a.where});
        }
        const input_value_def* def = nullptr;
        if (defs != nullptr) {
            for (const auto& d : *defs) {
                if (d.name == a.name) {
                    def = &d;
                }
            }
            if (def == nullptr) {
                fail("Unknown argument \"" + a.name + "\" on " + owner + ".", {a.where});
            }
        }
        literal(
            def == nullptr ? nullptr : &def->type, a.val, def != nullptr && def->default_value.has_value()
        );
    }
}

// Values of correct type, unique input field names, and variable usages with their expected types.
void validator::literal(const type_ref* type, const value& v, bool has_default, const type_ref* shown) {
    if (v.what == value::kind::variable) {
        current_->usages.push_back({v.text, type, has_default, v.where});
        return;
    }
    if (type == nullptr) {
        for (const auto& item : v.items) {
            literal(nullptr, item, false);
        }
        for (const auto& f : v.fields) {
            literal(nullptr, f.val, false);
        }
        return;
    }
    const auto mismatch = [&] {
        fail(
            "Expected value of type \"" + to_string(shown == nullptr ? *type : *shown) + "\", found " +
                to_string(v) + ".",
            {v.where}
        );
    };
    if (type->wrap == type_ref::kind::non_null) {
        if (v.what == value::kind::null) {
            mismatch();
            return;
        }
        literal(type->of.get(), v, has_default, type);
        return;
    }
    if (v.what == value::kind::null) {
        return;
    }
    if (type->wrap == type_ref::kind::list) {
        if (v.what == value::kind::list) {
            for (const auto& item : v.items) {
                literal(type->of.get(), item, false);
            }
        } else {
            literal(type->of.get(), v, false);
        }
        return;
    }
    const type_def* named = s_.find_type(type->name);
    if (named == nullptr) {
        return;
    }
    if (named->kind == type_kind::input_object) {
        if (v.what != value::kind::object) {
            mismatch();
            return;
        }
        std::set<std::string> seen;
        for (const auto& f : v.fields) {
            if (!seen.insert(f.name).second) {
                fail("There can be only one input field named \"" + f.name + "\".", {f.where});
            }
            const input_value_def* def = named->input_field(f.name);
            if (def == nullptr) {
                fail("Field \"" + f.name + "\" is not defined by type \"" + named->name + "\".", {f.where});
                literal(nullptr, f.val, false);
            } else {
                literal(&def->type, f.val, def->default_value.has_value());
            }
        }
        for (const auto& def : named->input_fields) {
            if (def.type.is_non_null() && !def.default_value && seen.count(def.name) == 0) {
                fail(
                    "Field \"" + named->name + "." + def.name + "\" of required type \"" +
                        to_string(def.type) + "\" was not provided.",
                    {v.where}
                );
            }
        }
        return;
    }
    std::string reason;
    if (v.what == value::kind::list || v.what == value::kind::object ||
        !detail::coerce_literal(s_, *type, v, {}, reason)) {
        if (named->builtin || named->kind == type_kind::enum_type) {
            mismatch();
        }
    }
}

void validator::selection_set(const std::vector<selection>& set, const type_def* parent) {
    if (parent != nullptr) {
        overlap_.check(set, parent, errors_);
    }
    for (const auto& sel : set) {
        switch (sel.what) {
            case selection::kind::field:
                field(sel, parent);
                break;
            case selection::kind::fragment_spread:
                spread(sel, parent);
                break;
            case selection::kind::inline_fragment:
                inline_fragment(sel, parent);
                break;
        }
    }
}

void validator::field(const selection& sel, const type_def* parent) {
    directives(sel.directives, "FIELD");
    const field_def* def = parent == nullptr ? nullptr : s_.find_field(*parent, sel.name);
    if (parent != nullptr && def == nullptr) {
        fail("Cannot query field \"" + sel.name + "\" on type \"" + parent->name + "\".", {sel.where});
    }
    arguments(
        sel.arguments,
        def == nullptr ? nullptr : &def->arguments,
        "field \"" + (parent == nullptr ? std::string() : parent->name) + "." + sel.name + "\""
    );
    const type_def* type = nullptr;
    if (def != nullptr) {
        for (const auto& a : def->arguments) {
            if (a.type.is_non_null() && !a.default_value && !given(sel.arguments, a.name)) {
                fail(
                    "Field \"" + sel.name + "\" argument \"" + a.name + "\" of type \"" + to_string(a.type) +
                        "\" is required, but it was not provided.",
                    {sel.where}
                );
            }
        }
        type = s_.find_type(def->type.base());
        if (type != nullptr && type->is_leaf() && !sel.selections.empty()) {
            fail(
                "Field \"" + sel.name + "\" must not have a selection since type \"" + to_string(def->type) +
                    "\" has no subfields.",
                {sel.where}
            );
        } else if (type != nullptr && !type->is_leaf() && sel.selections.empty()) {
            fail(
                "Field \"" + sel.name + "\" of type \"" + to_string(def->type) +
                    "\" must have a selection of subfields. Did you mean \"" + sel.name + " { ... }\"?",
                {sel.where}
            );
        }
    }
    selection_set(sel.selections, type != nullptr && type->is_composite() ? type : nullptr);
}

void validator::spread(const selection& sel, const type_def* parent) {
    directives(sel.directives, "FRAGMENT_SPREAD");
    current_->spreads.emplace_back(sel.name, sel.where);
    const auto it = fragments_.find(sel.name);
    if (it == fragments_.end()) {
        fail("Unknown fragment \"" + sel.name + "\".", {sel.where});
        return;
    }
    const type_def* t = s_.find_type(it->second->type_condition);
    if (parent != nullptr && t != nullptr && t->is_composite() && !s_.overlap(*parent, *t)) {
        fail(
            "Fragment \"" + sel.name + "\" cannot be spread here as objects of type \"" + parent->name +
                "\" can never be of type \"" + t->name + "\".",
            {sel.where}
        );
    }
}

void validator::inline_fragment(const selection& sel, const type_def* parent) {
    directives(sel.directives, "INLINE_FRAGMENT");
    const type_def* t = parent;
    if (!sel.type_condition.empty()) {
        t = s_.find_type(sel.type_condition);
        if (t == nullptr) {
            fail("Unknown type \"" + sel.type_condition + "\".", {sel.where});
        } else if (!t->is_composite()) {
            fail(
                "Fragment cannot condition on non composite type \"" + sel.type_condition + "\".", {sel.where}
            );
            t = nullptr;
        } else if (parent != nullptr && !s_.overlap(*parent, *t)) {
            fail(
                "Fragment cannot be spread here as objects of type \"" + parent->name +
                    "\" can never be of type \"" + t->name + "\".",
                {sel.where}
            );
        }
    }
    selection_set(sel.selections, t);
}

}  // namespace storefront::graphql::detail
