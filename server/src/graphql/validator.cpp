// Validation of an executable document against the schema (spec section 5) and the depth limit.
// One walk per definition collects spreads and variable usages; cross-definition rules run afterwards.

#include "server/graphql/validator.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "overlapping_fields.hpp"
#include "values.hpp"

namespace storefront::server::graphql {
namespace {

struct variable_usage {
    std::string name;
    const type_ref* expected;  // null: unknown position
    bool has_default;          // the position (argument or input field) has a default value
    location where;
};

// What a walk of one definition found: fragment spreads and variable usages.
struct definition_facts {
    std::vector<std::pair<std::string, location>> spreads;
    std::vector<variable_usage> usages;
};

const char* kind_location(operation_kind k) {
    switch (k) {
        case operation_kind::query:
            return "QUERY";
        case operation_kind::mutation:
            return "MUTATION";
        case operation_kind::subscription:
            return "SUBSCRIPTION";
    }
    return "QUERY";
}

class validator final {
  public:
    validator(const schema& s, const document& doc, const limits& bounds)
        : s_(s), doc_(doc), bounds_(bounds) {}

    std::vector<error> run() {
        for (const auto& other : doc_.others) {
            fail("The \"" + other.name + "\" definition is not executable.", {other.where});
        }
        std::set<std::string> op_names;
        for (const auto& op : doc_.operations) {
            if (op.name.empty() && doc_.operations.size() > 1) {
                fail("This anonymous operation must be the only defined operation.", {op.where});
            }
            if (!op.name.empty() && !op_names.insert(op.name).second) {
                fail("There can be only one operation named \"" + op.name + "\".", {op.where});
            }
        }
        for (const auto& f : doc_.fragments) {
            if (!fragments_.emplace(f.name, &f).second) {
                fail("There can be only one fragment named \"" + f.name + "\".", {f.where});
            }
        }
        for (const auto& f : doc_.fragments) {
            current_ = &facts_[f.name];
            const type_def* t = s_.find_type(f.type_condition);
            if (t == nullptr) {
                fail("Unknown type \"" + f.type_condition + "\".", {f.where});
            } else if (!t->is_composite()) {
                fail(
                    "Fragment \"" + f.name + "\" cannot condition on non composite type \"" +
                        f.type_condition + "\".",
                    {f.where}
                );
                t = nullptr;
            }
            directives(f.directives, "FRAGMENT_DEFINITION");
            selection_set(f.selections, t);
        }
        std::vector<definition_facts> op_facts(doc_.operations.size());
        for (std::size_t i = 0; i < doc_.operations.size(); ++i) {
            const auto& op = doc_.operations[i];
            current_ = &op_facts[i];
            const type_def* root = s_.root(op.kind);
            if (root == nullptr) {
                fail(
                    std::string("Schema is not configured to execute ") +
                        (op.kind == operation_kind::mutation ? "mutation" : "subscription") + " operation.",
                    {op.where}
                );
            }
            variable_definitions(op);
            directives(op.directives, kind_location(op.kind));
            selection_set(op.selections, root);
        }
        fragment_cycles();
        std::set<std::string> used;
        for (std::size_t i = 0; i < doc_.operations.size(); ++i) {
            const auto reached = reachable(op_facts[i]);
            used.insert(reached.begin(), reached.end());
            operation_variables(doc_.operations[i], op_facts[i], reached);
        }
        for (const auto& f : doc_.fragments) {
            if (used.count(f.name) == 0 && fragments_[f.name] == &f) {
                fail("Fragment \"" + f.name + "\" is never used.", {f.where});
            }
        }
        if (!has_cycle_) {
            for (const auto& op : doc_.operations) {
                const std::size_t d = depth(op.selections);
                if (d > bounds_.max_depth) {
                    fail(
                        "Query depth " + std::to_string(d) + " exceeds the maximum depth " +
                            std::to_string(bounds_.max_depth) + ".",
                        {op.where}
                    );
                }
            }
        }
        return std::move(errors_);
    }

  private:
    void fail(std::string message, std::vector<location> where) {
        errors_.push_back({std::move(message), std::move(where), {}, "GRAPHQL_VALIDATION_FAILED", {}});
    }

    void variable_definitions(const operation_definition& op) {
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

    void directives(const std::vector<directive>& list, const char* where) {
        std::set<std::string> seen;
        for (const auto& d : list) {
            const directive_def* def = s_.find_directive(d.name);
            if (def == nullptr) {
                fail("Unknown directive \"@" + d.name + "\".", {d.where});
                arguments(d.arguments, nullptr, "", "");
                continue;
            }
            if (!def->allowed_at(where)) {
                fail("Directive \"@" + d.name + "\" may not be used on " + where + ".", {d.where});
            }
            if (!def->repeatable && !seen.insert(d.name).second) {
                fail("The directive \"@" + d.name + "\" can only be used once at this location.", {d.where});
            }
            arguments(d.arguments, &def->arguments, "directive \"@" + d.name + "\"", "");
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

    static bool given(const std::vector<argument>& args, const std::string& name) {
        return std::any_of(args.begin(), args.end(), [&](const argument& a) { return a.name == name; });
    }

    // Known, unique argument names, and their values; `owner` names the field or directive in messages.
    void
    arguments(const std::vector<argument>& args, const std::vector<input_value_def>* defs, const std::string& owner, const std::string&) {
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
    void literal(const type_ref* type, const value& v, bool has_default, const type_ref* shown = nullptr) {
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
                    fail(
                        "Field \"" + f.name + "\" is not defined by type \"" + named->name + "\".", {f.where}
                    );
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

    void selection_set(const std::vector<selection>& set, const type_def* parent) {
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

    void field(const selection& sel, const type_def* parent) {
        directives(sel.directives, "FIELD");
        const field_def* def = parent == nullptr ? nullptr : s_.find_field(*parent, sel.name);
        if (parent != nullptr && def == nullptr) {
            fail("Cannot query field \"" + sel.name + "\" on type \"" + parent->name + "\".", {sel.where});
        }
        arguments(
            sel.arguments,
            def == nullptr ? nullptr : &def->arguments,
            "field \"" + (parent == nullptr ? std::string() : parent->name) + "." + sel.name + "\"",
            ""
        );
        const type_def* type = nullptr;
        if (def != nullptr) {
            for (const auto& a : def->arguments) {
                if (a.type.is_non_null() && !a.default_value && !given(sel.arguments, a.name)) {
                    fail(
                        "Field \"" + sel.name + "\" argument \"" + a.name + "\" of type \"" +
                            to_string(a.type) + "\" is required, but it was not provided.",
                        {sel.where}
                    );
                }
            }
            type = s_.find_type(def->type.base());
            if (type != nullptr && type->is_leaf() && !sel.selections.empty()) {
                fail(
                    "Field \"" + sel.name + "\" must not have a selection since type \"" +
                        to_string(def->type) + "\" has no subfields.",
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

    void spread(const selection& sel, const type_def* parent) {
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

    void inline_fragment(const selection& sel, const type_def* parent) {
        directives(sel.directives, "INLINE_FRAGMENT");
        const type_def* t = parent;
        if (!sel.type_condition.empty()) {
            t = s_.find_type(sel.type_condition);
            if (t == nullptr) {
                fail("Unknown type \"" + sel.type_condition + "\".", {sel.where});
            } else if (!t->is_composite()) {
                fail(
                    "Fragment cannot condition on non composite type \"" + sel.type_condition + "\".",
                    {sel.where}
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

    // --- fragments and variables across definitions
    std::set<std::string> reachable(const definition_facts& facts) {
        std::set<std::string> seen;
        std::vector<const definition_facts*> todo{&facts};
        while (!todo.empty()) {
            const definition_facts* f = todo.back();
            todo.pop_back();
            for (const auto& [name, where] : f->spreads) {
                if (fragments_.count(name) != 0 && seen.insert(name).second) {
                    todo.push_back(&facts_[name]);
                }
            }
        }
        return seen;
    }

    void fragment_cycles() {
        std::map<std::string, int> state;  // 1: on the current path, 2: done
        std::vector<std::string> path;
        for (const auto& f : doc_.fragments) {
            cycle_from(f.name, state, path);
        }
    }

    void cycle_from(
        const std::string& name, std::map<std::string, int>& state, std::vector<std::string>& path
    ) {
        if (state[name] != 0) {
            return;
        }
        state[name] = 1;
        path.push_back(name);
        for (const auto& [target, where] : facts_[name].spreads) {
            if (fragments_.count(target) == 0) {
                continue;
            }
            if (state[target] == 1) {
                has_cycle_ = true;
                const auto start = std::find(path.begin(), path.end(), target);
                std::string via;
                for (auto it = start + 1; it != path.end(); ++it) {
                    via += (via.empty() ? " via \"" : ", \"") + *it + "\"";
                }
                fail("Cannot spread fragment \"" + target + "\" within itself" + via + ".", {where});
            } else {
                cycle_from(target, state, path);
            }
        }
        path.pop_back();
        state[name] = 2;
    }

    void operation_variables(
        const operation_definition& op, const definition_facts& facts, const std::set<std::string>& reached
    ) {
        std::vector<const variable_usage*> usages;
        for (const auto& u : facts.usages) {
            usages.push_back(&u);
        }
        for (const auto& name : reached) {
            for (const auto& u : facts_[name].usages) {
                usages.push_back(&u);
            }
        }
        std::set<std::string> used;
        std::set<std::pair<std::size_t, std::size_t>> reported;
        for (const auto* u : usages) {
            used.insert(u->name);
            const auto def = std::find_if(op.variables.begin(), op.variables.end(), [&](const auto& v) {
                return v.name == u->name;
            });
            if (def == op.variables.end()) {
                if (reported.insert({u->where.line, u->where.column}).second) {
                    fail(
                        "Variable \"$" + u->name + "\" is not defined" +
                            (op.name.empty() ? std::string(".") : " by operation \"" + op.name + "\"."),
                        {u->where, op.where}
                    );
                }
                continue;
            }
            if (u->expected != nullptr && !allowed(def->type, def->default_value.has_value(), *u)) {
                fail(
                    "Variable \"$" + u->name + "\" of type \"" + to_string(def->type) +
                        "\" used in position expecting type \"" + to_string(*u->expected) + "\".",
                    {def->where, u->where}
                );
            }
        }
        for (const auto& v : op.variables) {
            if (used.count(v.name) == 0) {
                fail(
                    "Variable \"$" + v.name + "\" is never used" +
                        (op.name.empty() ? std::string(".") : " in operation \"" + op.name + "\"."),
                    {v.where}
                );
            }
        }
    }

    bool allowed(const type_ref& var, bool var_default, const variable_usage& u) const {
        const type_ref& loc = *u.expected;
        if (loc.is_non_null() && !var.is_non_null()) {
            if (!var_default && !u.has_default) {
                return false;
            }
            return subtype(var, *loc.of);
        }
        return subtype(var, loc);
    }

    static bool subtype(const type_ref& sub, const type_ref& super) {
        if (super.is_non_null()) {
            return sub.is_non_null() && subtype(*sub.of, *super.of);
        }
        if (sub.is_non_null()) {
            return subtype(*sub.of, super);
        }
        if (super.wrap == type_ref::kind::list) {
            return sub.wrap == type_ref::kind::list && subtype(*sub.of, *super.of);
        }
        return sub.wrap == type_ref::kind::named && sub.name == super.name;
    }

    // Deepest field nesting, fragments expanded once each (memoised, so shared fragments cost nothing more).
    std::size_t depth(const std::vector<selection>& set) {
        std::size_t deepest = 0;
        for (const auto& sel : set) {
            std::size_t d = 0;
            if (sel.what == selection::kind::field) {
                d = 1 + depth(sel.selections);
            } else if (sel.what == selection::kind::inline_fragment) {
                d = depth(sel.selections);
            } else {
                const auto memo = depth_memo_.find(sel.name);
                if (memo != depth_memo_.end()) {
                    d = memo->second;
                } else if (const auto it = fragments_.find(sel.name); it != fragments_.end()) {
                    depth_memo_[sel.name] = 0;  // a guard; cycles were ruled out
                    d = depth(it->second->selections);
                    depth_memo_[sel.name] = d;
                }
            }
            deepest = std::max(deepest, d);
        }
        return deepest;
    }

    const schema& s_;
    const document& doc_;
    const limits& bounds_;
    std::vector<error> errors_;
    std::unordered_map<std::string, const fragment_definition*> fragments_;
    std::unordered_map<std::string, definition_facts> facts_;
    definition_facts* current_ = nullptr;
    detail::overlap_checker overlap_{s_, fragments_};
    bool has_cycle_ = false;
    std::unordered_map<std::string, std::size_t> depth_memo_;
};

}  // namespace

std::vector<error> validate(const schema& s, const document& doc, const limits& bounds) {
    return validator(s, doc, bounds).run();
}

}  // namespace storefront::server::graphql
