#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphql/ast.hpp"
#include "graphql/errors.hpp"
#include "graphql/limits.hpp"
#include "graphql/schema.hpp"

namespace storefront::graphql {

// A parsed and validated document, immutable, shareable between threads.
class prepared_document final {
  public:
    prepared_document(std::string text, document ast) : text_(std::move(text)), ast_(std::move(ast)) {}
    // The query text it was prepared from.
    [[nodiscard]] const std::string& text() const { return text_; }
    // The document tree.
    [[nodiscard]] const document& ast() const { return ast_; }
    // The operation `name` selects (empty: the only one), or null with `failure` set (graphql-js wording,
    // code OPERATION_RESOLUTION_FAILURE as Apollo Server 4 reports it).
    [[nodiscard]] const operation_definition* find_operation(std::string_view name, error& failure) const;

  private:
    std::string text_;
    document ast_;
};

// The outcome of preparing a document: the document, or errors with the phase that failed.
struct preparation {
    std::shared_ptr<const prepared_document> document;  // null when errors is not empty
    std::vector<error> errors;  // code GRAPHQL_PARSE_FAILED or GRAPHQL_VALIDATION_FAILED
    bool parse_failed = false;  // true: syntax error (else validation)
};
// At most this many validation errors are reported, then one saying validation was aborted.
inline constexpr std::size_t max_validation_errors = 100;

// Parses (within max_document_bytes and max_tokens) and validates (with max_depth) `query`.
[[nodiscard]] preparation prepare(const schema& s, std::string_view query, const limits& bounds);

// The kind of the operation `operation_name` selects (empty = the only operation), or a failure:
// "Must provide operation name if query contains multiple operations." / "Unknown operation named \"x\"."
// with code OPERATION_RESOLUTION_FAILURE.
struct operation_choice {
    std::optional<operation_kind> kind;
    std::optional<error> failure;
};
[[nodiscard]] operation_choice choose_operation(
    const prepared_document& doc, std::string_view operation_name
);

}  // namespace storefront::graphql
