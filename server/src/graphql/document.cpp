// Preparing a document: size and token limits, parsing, validation; and choosing its operation by name.
// Syntax errors become GRAPHQL_PARSE_FAILED errors, rule violations GRAPHQL_VALIDATION_FAILED ones.

#include "graphql/document.hpp"

#include "graphql/parser.hpp"
#include "graphql/validator.hpp"

namespace storefront::graphql {

const operation_definition* prepared_document::find_operation(std::string_view name, error& failure) const {
    const auto& ops = ast_.operations;
    if (name.empty()) {
        if (ops.size() == 1) {
            return &ops.front();
        }
        failure = {
            ops.empty() ? "Must provide an operation."
                        : "Must provide operation name if query contains multiple operations.",
            {},
            {},
            "OPERATION_RESOLUTION_FAILURE",
            {}};
        return nullptr;
    }
    for (const auto& op : ops) {
        if (op.name == name) {
            return &op;
        }
    }
    failure = {
        "Unknown operation named \"" + std::string(name) + "\".", {}, {}, "OPERATION_RESOLUTION_FAILURE", {}};
    return nullptr;
}

preparation prepare(const schema& s, std::string_view query, const limits& bounds) {
    preparation out;
    if (query.size() > bounds.max_document_bytes) {
        out.parse_failed = true;
        out.errors.push_back(
            {"Syntax Error: Document exceeds the maximum size of " +
                 std::to_string(bounds.max_document_bytes) + " bytes.",
             {},
             {},
             "GRAPHQL_PARSE_FAILED",
             {}}
        );
        return out;
    }
    document ast;
    try {
        ast = parse_document(query, bounds.max_tokens);
    } catch (const syntax_error& e) {
        out.parse_failed = true;
        out.errors.push_back({e.what(), {e.where()}, {}, "GRAPHQL_PARSE_FAILED", {}});
        return out;
    }
    out.errors = validate(s, ast, bounds);
    if (out.errors.size() > max_validation_errors) {
        // graphql-js's maxErrors: a hostile document (thousands of repeated directives) gets a short answer.
        out.errors.resize(max_validation_errors);
        out.errors.push_back(
            {"Too many validation errors, error limit reached. Validation aborted.",
             {},
             {},
             "GRAPHQL_VALIDATION_FAILED",
             {}}
        );
    }
    if (out.errors.empty()) {
        out.document = std::make_shared<const prepared_document>(std::string(query), std::move(ast));
    }
    return out;
}

operation_choice choose_operation(const prepared_document& doc, std::string_view operation_name) {
    error failure;
    const operation_definition* op = doc.find_operation(operation_name, failure);
    if (op == nullptr) {
        return {std::nullopt, std::move(failure)};
    }
    return {op->kind, std::nullopt};
}

}  // namespace storefront::graphql
