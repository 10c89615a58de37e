#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "graphql/validator.hpp"
#include "overlapping_fields.hpp"

// The validator's state, shared by validator.cpp (document-level rules) and validator_selections.cpp
// (the walk over selections, arguments, values and directives).
namespace storefront::graphql::detail {

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

class validator final {
  public:
    validator(const schema& s, const document& doc, const limits& bounds)
        : s_(s), doc_(doc), bounds_(bounds) {}
    // Every rule over the whole document.
    std::vector<error> run();

  private:
    void fail(std::string message, std::vector<location> where) {
        errors_.push_back({std::move(message), std::move(where), {}, "GRAPHQL_VALIDATION_FAILED", {}});
    }

    void variable_definitions(const operation_definition& op);

    void directives(const std::vector<directive>& list, std::string_view where);

    static bool given(const std::vector<argument>& args, const std::string& name);

    // Known, unique argument names, and their values; `owner` names the field or directive in messages.
    void arguments(
        const std::vector<argument>& args, const std::vector<input_value_def>* defs, const std::string& owner
    );

    // Values of correct type, unique input field names, and variable usages with their expected types.
    void literal(const type_ref* type, const value& v, bool has_default, const type_ref* shown = nullptr);

    void selection_set(const std::vector<selection>& set, const type_def* parent);

    void field(const selection& sel, const type_def* parent);

    void spread(const selection& sel, const type_def* parent);

    void inline_fragment(const selection& sel, const type_def* parent);

    // --- fragments and variables across definitions
    std::set<std::string> reachable(const definition_facts& facts);

    void fragment_cycles();

    void cycle_from(
        const std::string& name, std::map<std::string, int>& state, std::vector<std::string>& path
    );

    void operation_variables(
        const operation_definition& op, const definition_facts& facts, const std::set<std::string>& reached
    );

    bool allowed(const type_ref& var, bool var_default, const variable_usage& u) const;

    static bool subtype(const type_ref& sub, const type_ref& super);

    // Deepest field nesting, fragments expanded once each (memoised, so shared fragments cost nothing more).
    std::size_t depth(const std::vector<selection>& set);

    const schema& s_;
    const document& doc_;
    const limits& bounds_;
    std::vector<error> errors_;
    std::unordered_map<std::string, const fragment_definition*> fragments_;
    std::unordered_map<std::string, definition_facts> facts_;
    definition_facts* current_ = nullptr;
    overlap_checker overlap_{s_, fragments_};
    bool has_cycle_ = false;
    std::unordered_map<std::string, std::size_t> depth_memo_;
};

}  // namespace storefront::graphql::detail
