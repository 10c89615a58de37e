// Execution (spec section 6): variable coercion, field collection with @skip/@include and fragments,
// argument coercion, resolver calls, leaf serialisation and null propagation, and the response JSON.

#include "graphql/executor.hpp"

#include <unordered_map>
#include <unordered_set>

#include <boost/json/serialize.hpp>

#include "introspection.hpp"
#include "json_text.hpp"
#include "values.hpp"

namespace storefront::graphql {
namespace {

namespace json = boost::json;

struct budget_exceeded {};

// Fields of one selection set grouped by response name, in first-seen order.
using field_group = std::vector<const selection*>;
using grouped_fields = std::vector<std::pair<std::string, field_group>>;

class executor final {
  public:
    executor(const schema& s, const prepared_document& doc, void* context, const limits& bounds)
        : s_(s), doc_(doc), context_(context), bounds_(bounds) {
        for (const auto& f : doc.ast().fragments) {
            fragments_.emplace(f.name, &f);
        }
    }

    execution run(std::string_view operation_name, const json::object& raw_variables) {
        execution out;
        error failure;
        const operation_definition* op = doc_.find_operation(operation_name, failure);
        if (op == nullptr) {
            out.errors.push_back(std::move(failure));
            return out;
        }
        if (!coerce_variables(*op, raw_variables)) {
            out.variables_failed = true;
            out.errors = std::move(errors_);
            return out;
        }
        const type_def* root = s_.root(op->kind);
        if (root == nullptr) {
            out.errors.push_back(
                {"Schema is not configured to execute this operation.", {op->where}, {}, "BAD_REQUEST", {}}
            );
            return out;
        }
        try {
            json::array path;
            auto data = object_fields(*root, json::value(nullptr), {&op->selections}, path);
            out.data = data ? std::move(*data) : json::value(nullptr);
        } catch (const budget_exceeded&) {
            out.data = json::value(nullptr);
            errors_.push_back(
                {"Execution exceeded the maximum of " + std::to_string(bounds_.max_fields) +
                     " resolved fields.",
                 {},
                 {},
                 "BAD_REQUEST",
                 {}}
            );
        }
        out.errors = std::move(errors_);
        return out;
    }

  private:
    bool coerce_variables(const operation_definition& op, const json::object& raw) {
        for (const auto& def : op.variables) {
            const auto* given = raw.if_contains(def.name);
            const std::string label = "Variable \"$" + def.name + "\"";
            std::string message;
            if (given == nullptr) {
                if (def.default_value) {
                    std::string reason;
                    if (auto v = detail::coerce_literal(s_, def.type, *def.default_value, {}, reason)) {
                        variables_[def.name] = std::move(*v);
                    }
                } else if (def.type.is_non_null()) {
                    message = label + " of required type \"" + to_string(def.type) + "\" was not provided.";
                }
            } else if (given->is_null() && def.type.is_non_null()) {
                message = label + " of non-null type \"" + to_string(def.type) + "\" must not be null.";
            } else if (s_.is_input(def.type)) {
                detail::input_problem problem;
                if (auto v = detail::coerce_input(s_, def.type, *given, problem)) {
                    variables_[def.name] = std::move(*v);
                } else {
                    message = label + " got invalid value " + problem.value_text +
                              (problem.path.empty() ? "" : " at \"" + def.name + problem.path + "\"") + "; " +
                              problem.reason;
                }
            }
            if (!message.empty()) {
                errors_.push_back({std::move(message), {def.where}, {}, "BAD_USER_INPUT", {}});
            }
        }
        return errors_.empty();
    }

    bool included(const std::vector<directive>& directives) {
        for (const auto& d : directives) {
            if (d.name != "skip" && d.name != "include") {
                continue;
            }
            for (const auto& a : d.arguments) {
                std::string reason;
                const auto v = detail::coerce_literal(
                    s_, type_ref::non_null_of(type_ref::named_type("Boolean")), a.val, variables_, reason
                );
                const bool flag = v && v->is_bool() && v->get_bool();
                if (a.name == "if" && (d.name == "skip" ? flag : !flag)) {
                    return false;
                }
            }
        }
        return true;
    }

    bool applies(const std::string& condition, const type_def& object) const {
        if (condition.empty()) {
            return true;
        }
        const type_def* t = s_.find_type(condition);
        return t != nullptr && s_.is_possible(*t, object);
    }

    void collect(
        const type_def& object,
        const std::vector<selection>& set,
        grouped_fields& groups,
        std::unordered_map<std::string, std::size_t>& index,
        std::unordered_set<std::string>& visited
    ) {
        for (const auto& sel : set) {
            if (!included(sel.directives)) {
                continue;
            }
            if (sel.what == selection::kind::field) {
                const auto [it, inserted] = index.emplace(sel.response_name(), groups.size());
                if (inserted) {
                    groups.emplace_back(sel.response_name(), field_group{});
                }
                groups[it->second].second.push_back(&sel);
            } else if (sel.what == selection::kind::inline_fragment) {
                if (applies(sel.type_condition, object)) {
                    collect(object, sel.selections, groups, index, visited);
                }
            } else if (visited.insert(sel.name).second) {
                const auto it = fragments_.find(sel.name);
                if (it != fragments_.end() && applies(it->second->type_condition, object)) {
                    collect(object, it->second->selections, groups, index, visited);
                }
            }
        }
    }

    // The object's fields, or nullopt when a non-null field failed (the parent becomes null).
    std::optional<json::value> object_fields(
        const type_def& type,
        const json::value& parent,
        const std::vector<const std::vector<selection>*>& sets,
        json::array& path
    ) {
        grouped_fields groups;
        std::unordered_map<std::string, std::size_t> index;
        std::unordered_set<std::string> visited;
        for (const auto* set : sets) {
            collect(type, *set, groups, index, visited);
        }
        json::object out;
        for (const auto& [name, group] : groups) {
            path.push_back(json::value(name));
            auto v = field(type, parent, group, path);
            path.pop_back();
            if (!v) {
                // The object is null now: its remaining fields (and later mutations) are not run, as in
                // graphql-js.
                return std::nullopt;
            }
            out[name] = std::move(*v);
        }
        return json::value(std::move(out));
    }

    void field_error(
        std::string message, std::string code, const field_group& group, const json::array& path
    ) {
        error e{std::move(message), {}, path, std::move(code), {}};
        for (const auto* f : group) {
            e.locations.push_back(f->where);
        }
        errors_.push_back(std::move(e));
    }

    std::optional<json::value> field(
        const type_def& type, const json::value& parent, const field_group& group, json::array& path
    ) {
        if (++resolved_fields_ > bounds_.max_fields) {
            throw budget_exceeded{};
        }
        const selection& node = *group.front();
        if (node.name == "__typename") {
            return json::value(type.name);
        }
        const field_def* def = s_.find_field(type, node.name);
        if (def == nullptr) {
            return json::value(nullptr);  // validation rules this out
        }
        const auto nullable = [&](std::optional<json::value> v) {
            return v || def->type.is_non_null() ? v : std::optional<json::value>(json::value(nullptr));
        };
        json::object args;
        for (const auto& a : def->arguments) {
            const value* given = nullptr;
            for (const auto& arg : node.arguments) {
                if (arg.name == a.name) {
                    given = &arg.val;
                }
            }
            if (given != nullptr && given->what == value::kind::variable &&
                !variables_.contains(given->text)) {
                given = nullptr;
            }
            if (given == nullptr && a.default_value) {
                given = &*a.default_value;
            }
            if (given == nullptr) {
                continue;
            }
            std::string reason;
            auto v = detail::coerce_literal(s_, a.type, *given, variables_, reason);
            if (!v) {
                field_error(reason, "BAD_USER_INPUT", group, path);
                return nullable(std::nullopt);
            }
            args[a.name] = std::move(*v);
        }
        const resolve_info info{parent, args, def->name, type.name, context_};
        resolved r;
        try {
            if (detail::is_introspection_field(type.name, def->name)) {
                r = detail::resolve_introspection(s_, info);
            } else if (def->fn) {
                r = def->fn(info);
            } else {
                const auto* member =
                    parent.is_object() ? parent.get_object().if_contains(def->name) : nullptr;
                r = resolved::ok(member == nullptr ? json::value(nullptr) : *member);
            }
        } catch (const budget_exceeded&) {
            throw;
        } catch (...) {
            r = resolved::fail("Internal server error", "INTERNAL_SERVER_ERROR");
        }
        if (r.failure) {
            error e = std::move(*r.failure);
            e.path = path;
            e.locations.clear();
            for (const auto* f : group) {
                e.locations.push_back(f->where);
            }
            errors_.push_back(std::move(e));
            return nullable(std::nullopt);
        }
        return nullable(complete(type, *def, def->type, group, r.value, path));
    }

    // The value completed for `t`; nullopt: this position errored (already reported) and is null.
    std::optional<json::value> complete(
        const type_def& parent,
        const field_def& def,
        const type_ref& t,
        const field_group& group,
        const json::value& v,
        json::array& path
    ) {
        if (t.wrap == type_ref::kind::non_null) {
            auto inner = complete(parent, def, *t.of, group, v, path);
            if (inner && inner->is_null()) {
                field_error(
                    "Cannot return null for non-nullable field " + parent.name + "." + def.name + ".",
                    "INTERNAL_SERVER_ERROR",
                    group,
                    path
                );
                return std::nullopt;
            }
            return inner;
        }
        if (v.is_null()) {
            return json::value(nullptr);
        }
        if (t.wrap == type_ref::kind::list) {
            if (!v.is_array()) {
                field_error(
                    "Expected Iterable, but did not find one for field \"" + parent.name + "." + def.name +
                        "\".",
                    "INTERNAL_SERVER_ERROR",
                    group,
                    path
                );
                return std::nullopt;
            }
            json::array out;
            const auto& items = v.get_array();
            for (std::size_t i = 0; i < items.size(); ++i) {
                path.push_back(json::value(static_cast<std::uint64_t>(i)));
                auto item = complete(parent, def, *t.of, group, items[i], path);
                path.pop_back();
                if (!item && t.of->is_non_null()) {
                    return std::nullopt;
                }
                out.push_back(item ? std::move(*item) : json::value(nullptr));
            }
            return json::value(std::move(out));
        }
        const type_def* named = s_.find_type(t.name);
        if (named->is_leaf()) {
            std::string reason;
            auto out = detail::serialize_leaf(*named, v, reason);
            if (!out) {
                field_error(reason, "INTERNAL_SERVER_ERROR", group, path);
            }
            return out;
        }
        const type_def* object = named;
        if (named->kind != type_kind::object) {
            const auto* name = v.is_object() ? v.get_object().if_contains("__typename") : nullptr;
            object = name != nullptr && name->is_string() ? s_.find_type(name->get_string()) : nullptr;
            if (object == nullptr || object->kind != type_kind::object || !s_.is_possible(*named, *object)) {
                field_error(
                    "Abstract type \"" + named->name +
                        "\" must resolve to an Object type at runtime for field \"" + parent.name + "." +
                        def.name + "\".",
                    "INTERNAL_SERVER_ERROR",
                    group,
                    path
                );
                return std::nullopt;
            }
        }
        std::vector<const std::vector<selection>*> sets;
        for (const auto* f : group) {
            sets.push_back(&f->selections);
        }
        return object_fields(*object, v, sets, path);
    }

    const schema& s_;
    const prepared_document& doc_;
    void* context_;
    const limits& bounds_;
    std::unordered_map<std::string, const fragment_definition*> fragments_;
    json::object variables_;
    std::vector<error> errors_;
    std::size_t resolved_fields_ = 0;
};

}  // namespace

execution execute(
    const schema& s,
    const prepared_document& doc,
    std::string_view operation_name,
    const json::object& variables,
    void* context,
    const limits& bounds
) {
    return executor(s, doc, context, bounds).run(operation_name, variables);
}

std::string to_response_json(const execution& result) {
    json::object out;
    if (!result.errors.empty()) {
        json::array errors;
        for (const auto& e : result.errors) {
            errors.push_back(to_json(e));
        }
        out["errors"] = std::move(errors);
    }
    if (result.data) {
        out["data"] = *result.data;
    }
    return detail::json_text(out);
}

}  // namespace storefront::graphql
