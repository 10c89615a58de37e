#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "graphql/ast.hpp"
#include "graphql/errors.hpp"
#include "graphql/schema.hpp"

namespace storefront::graphql::detail {

// The rule "overlapping fields can be merged" (spec 5.3.2): fields of one selection set (fragments
// expanded) with the same response name must be the same field with the same arguments and types, and
// their sub-selections must merge too. Bounded: after a fixed amount of work it stops looking.
class overlap_checker final {
  public:
    overlap_checker(
        const schema& s, const std::unordered_map<std::string, const fragment_definition*>& fragments
    )
        : s_(s), fragments_(fragments) {}
    // Appends one error per conflicting response name of `set` (whose type is `parent`) to `out`.
    void check(const std::vector<selection>& set, const type_def* parent, std::vector<error>& out);

  private:
    struct collected {
        const selection* field;
        const type_def* parent;
        std::size_t origin;  // which merged field it came from; pairs of one origin are checked elsewhere
    };
    struct conflict {
        std::string key;
        std::string reason;
        std::vector<location> where;
    };
    void collect(
        const std::vector<selection>& set,
        const type_def* parent,
        std::size_t origin,
        std::vector<collected>& out,
        std::vector<std::string>& visited
    );
    std::vector<conflict> conflicts(
        const std::vector<collected>& fields, bool cross_only, bool first_only, std::size_t depth
    );
    std::string pair_reason(const collected& a, const collected& b) const;
    const type_def* result_type(const collected& c) const;
    bool spend();

    const schema& s_;
    const std::unordered_map<std::string, const fragment_definition*>& fragments_;
    std::size_t work_ = 0;
};

}  // namespace storefront::graphql::detail
