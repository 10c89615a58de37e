// Validation of an executable document against the schema (spec section 5) and the depth limit.
// One walk per definition (validator_selections.cpp) collects spreads and variable usages; the
// document-level rules here use them: names, fragment use and cycles, variables, depth.

#include "graphql/validator.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "core/enum_names.hpp"
#include "validator_state.hpp"

namespace storefront::graphql {
namespace detail {
namespace {

// The directive location of each kind of operation.
constexpr core::enum_name<operation_kind> operation_locations[] = {
    {operation_kind::query, "QUERY"},
    {operation_kind::mutation, "MUTATION"},
    {operation_kind::subscription, "SUBSCRIPTION"},
};
// One row a kind: subscription is the last enumerator (ast.hpp).
static_assert(std::size(operation_locations) == static_cast<std::size_t>(operation_kind::subscription) + 1);

}  // namespace

std::vector<error> validator::run() {
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
                "Fragment \"" + f.name + "\" cannot condition on non composite type \"" + f.type_condition +
                    "\".",
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
        directives(op.directives, core::name_of(operation_locations, op.kind, "QUERY"));
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

std::set<std::string> validator::reachable(const definition_facts& facts) {
    std::set<std::string> seen;
    std::vector<const definition_facts*> to_visit{&facts};
    while (!to_visit.empty()) {
        const definition_facts* f = to_visit.back();
        to_visit.pop_back();
        for (const auto& [name, where] : f->spreads) {
            if (fragments_.count(name) != 0 && seen.insert(name).second) {
                to_visit.push_back(&facts_[name]);
            }
        }
    }
    return seen;
}

void validator::fragment_cycles() {
    std::map<std::string, int> state;  // 1: on the current path, 2: done
    std::vector<std::string> path;
    for (const auto& f : doc_.fragments) {
        cycle_from(f.name, state, path);
    }
}

void validator::cycle_from(
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

void validator::operation_variables(
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

bool validator::allowed(const type_ref& var, bool var_default, const variable_usage& u) const {
    const type_ref& loc = *u.expected;
    if (loc.is_non_null() && !var.is_non_null()) {
        if (!var_default && !u.has_default) {
            return false;
        }
        return subtype(var, *loc.of);
    }
    return subtype(var, loc);
}

bool validator::subtype(const type_ref& sub, const type_ref& super) {
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
std::size_t validator::depth(const std::vector<selection>& set) {
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

}  // namespace detail

std::vector<error> validate(const schema& s, const document& doc, const limits& bounds) {
    return detail::validator(s, doc, bounds).run();
}

}  // namespace storefront::graphql
