#pragma once

#include "graphql/schema.hpp"

// The introspection resolvers: __schema and __type on the query root, and the fields of __Schema and
// __Type. __Type values are {"name": ...} or {"kind": "LIST"|"NON_NULL", "ofType": ...}; the other
// introspection objects are built whole, so the default resolver reads their members.
namespace storefront::graphql::detail {

// Whether the executor must call resolve_introspection for this field.
[[nodiscard]] bool is_introspection_field(std::string_view parent_type, std::string_view field_name);

[[nodiscard]] resolved resolve_introspection(const schema& s, const resolve_info& info);

}  // namespace storefront::graphql::detail
