#pragma once

#include <vector>

#include "server/graphql/ast.hpp"
#include "server/graphql/errors.hpp"
#include "server/graphql/limits.hpp"
#include "server/graphql/schema.hpp"

namespace storefront::server::graphql {

// The specification's validation rules (section 5) plus the depth limit, in graphql-js wording; every
// error has code GRAPHQL_VALIDATION_FAILED and the locations of the nodes at fault. Empty: valid.
// The overlapping-fields rule is simplified (same response name, different field names, arguments or
// types at one level; sub-selections are not merged) and stops after a fixed amount of work.
[[nodiscard]] std::vector<error> validate(const schema& s, const document& doc, const limits& bounds);

}  // namespace storefront::server::graphql
