#pragma once

#include <cstddef>

namespace storefront::graphql {

// Bounds on one document and one execution, so hostile documents fail fast.
struct limits {
    std::size_t max_depth =
        20;  // selection nesting depth (fragments expanded); GraphiQL's IntrospectionQuery passes
    std::size_t max_fields =
        10000;  // resolved fields per execution (list items' fields counted); beyond: BAD_REQUEST
    std::size_t max_tokens = 15000;  // lexer tokens per document
    std::size_t max_document_bytes = 100000;
};

}  // namespace storefront::graphql
