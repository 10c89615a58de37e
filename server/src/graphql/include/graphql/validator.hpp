#pragma once

#include <vector>

#include "graphql/ast.hpp"
#include "graphql/errors.hpp"
#include "graphql/limits.hpp"
#include "graphql/schema.hpp"

namespace storefront::graphql {

// The specification's validation rules (section 5) plus the depth limit, in graphql-js wording; every
// error has code GRAPHQL_VALIDATION_FAILED and the locations of the nodes at fault. Empty: valid.
// The overlapping-fields rule is simplified (same response name, different field names, arguments or
// types at one level; sub-selections are not merged) and stops after a fixed amount of work.
[[nodiscard]] std::vector<error> validate(const schema& s, const document& doc, const limits& bounds);

}  // namespace storefront::graphql
