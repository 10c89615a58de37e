// The overlapping-fields rule: group the fields a selection set would execute by response name, compare
// each with a partner of another origin, and merge their sub-selections, within a fixed work budget.

#include "overlapping_fields.hpp"

#include <algorithm>
#include <unordered_map>

namespace storefront::graphql::detail {
namespace {

constexpr std::size_t work_budget = 50000;  // fields collected and pairs compared per document
// Sub-selections merged at most this deep: fragments spread inside their own sub-selections (a cycle,
// reported by its own rule) would otherwise recurse for ever.
constexpr std::size_t max_merge_depth = 64;

bool same_arguments(const selection& a, const selection& b) {
    if (a.arguments.size() != b.arguments.size()) {
        return false;
    }
    for (const auto& x : a.arguments) {
        const auto it = std::find_if(b.arguments.begin(), b.arguments.end(), [&](const argument& y) {
            return y.name == x.name;
        });
        if (it == b.arguments.end() || to_string(it->val) != to_string(x.val)) {
            return false;
        }
    }
    return true;
}

}  // namespace

bool overlap_checker::spend() {
    return ++work_ <= work_budget;
}

void overlap_checker::collect(
    const std::vector<selection>& set,
    const type_def* parent,
    std::size_t origin,
    std::vector<collected>& out,
    std::vector<std::string>& visited
) {
    for (const auto& sel : set) {
        if (!spend()) {
            return;
        }
        if (sel.what == selection::kind::field) {
            out.push_back({&sel, parent, origin});
        } else if (sel.what == selection::kind::inline_fragment) {
            const type_def* t = sel.type_condition.empty() ? parent : s_.find_type(sel.type_condition);
            collect(sel.selections, t, origin, out, visited);
        } else if (std::find(visited.begin(), visited.end(), sel.name) == visited.end()) {
            visited.push_back(sel.name);
            const auto it = fragments_.find(sel.name);
            if (it != fragments_.end()) {
                collect(
                    it->second->selections, s_.find_type(it->second->type_condition), origin, out, visited
                );
            }
        }
    }
}

const type_def* overlap_checker::result_type(const collected& c) const {
    const field_def* def = c.parent == nullptr ? nullptr : s_.find_field(*c.parent, c.field->name);
    return def == nullptr ? nullptr : s_.find_type(def->type.base());
}

std::string overlap_checker::pair_reason(const collected& a, const collected& b) const {
    // Different object types can never both apply, so only their result types must agree.
    const bool same_parent = a.parent == b.parent || a.parent == nullptr || b.parent == nullptr ||
                             a.parent->kind != type_kind::object || b.parent->kind != type_kind::object;
    if (same_parent && a.field->name != b.field->name) {
        return "\"" + a.field->name + "\" and \"" + b.field->name + "\" are different fields";
    }
    if (same_parent && !same_arguments(*a.field, *b.field)) {
        return "they have differing arguments";
    }
    const field_def* fa = a.parent == nullptr ? nullptr : s_.find_field(*a.parent, a.field->name);
    const field_def* fb = b.parent == nullptr ? nullptr : s_.find_field(*b.parent, b.field->name);
    if (fa != nullptr && fb != nullptr && !(fa->type == fb->type)) {
        return "they return conflicting types \"" + to_string(fa->type) + "\" and \"" + to_string(fb->type) +
               "\"";
    }
    return {};
}

std::vector<overlap_checker::conflict> overlap_checker::conflicts(
    const std::vector<collected>& fields, bool cross_only, bool first_only, std::size_t depth
) {
    if (depth > max_merge_depth) {
        return {};
    }
    std::vector<std::string> order;
    std::unordered_map<std::string, std::vector<const collected*>> groups;
    for (const auto& c : fields) {
        auto& group = groups[c.field->response_name()];
        if (group.empty()) {
            order.push_back(c.field->response_name());
        }
        group.push_back(&c);
    }
    std::vector<conflict> out;
    for (const auto& key : order) {
        const auto& group = groups[key];
        if (group.size() < 2) {
            continue;
        }
        const collected* first = group.front();
        const collected* other = nullptr;  // the first field of another origin than `first`
        for (const auto* c : group) {
            if (c->origin != first->origin) {
                other = c;
                break;
            }
        }
        if (cross_only && other == nullptr) {
            continue;
        }
        std::string reason;
        std::vector<location> where;
        for (std::size_t i = 1; i < group.size() && reason.empty() && spend(); ++i) {
            const collected* partner = !cross_only || group[i]->origin != first->origin ? first : other;
            reason = pair_reason(*partner, *group[i]);
            where = {partner->field->where, group[i]->field->where};
        }
        if (reason.empty() && !first->field->selections.empty()) {
            // The merged sub-selections: fields from different members of the group must merge too.
            std::vector<collected> sub;
            for (std::size_t i = 0; i < group.size(); ++i) {
                std::vector<std::string> visited;
                collect(
                    group[i]->field->selections,
                    result_type(*group[i]),
                    cross_only ? group[i]->origin : i,
                    sub,
                    visited
                );
            }
            const auto inner = conflicts(sub, true, true, depth + 1);
            if (!inner.empty()) {
                reason = "subfields \"" + inner[0].key + "\" conflict because " + inner[0].reason;
                where = {first->field->where};
                if (other != nullptr) {
                    where.push_back(other->field->where);
                }
                where.insert(where.end(), inner[0].where.begin(), inner[0].where.end());
            }
        }
        if (!reason.empty()) {
            out.push_back({key, std::move(reason), std::move(where)});
            if (first_only) {
                return out;
            }
        }
    }
    return out;
}

void overlap_checker::check(
    const std::vector<selection>& set, const type_def* parent, std::vector<error>& out
) {
    if (work_ > work_budget) {
        return;
    }
    std::vector<collected> fields;
    std::vector<std::string> visited;
    collect(set, parent, 0, fields, visited);
    for (auto& c : conflicts(fields, false, false, 0)) {
        out.push_back(
            {"Fields \"" + c.key + "\" conflict because " + c.reason +
                 ". Use different aliases on the fields to fetch both if this was intentional.",
             std::move(c.where),
             {},
             "GRAPHQL_VALIDATION_FAILED",
             {}}
        );
    }
}

}  // namespace storefront::graphql::detail
