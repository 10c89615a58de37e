#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "graphql/document.hpp"
#include "graphql/errors.hpp"
#include "graphql/limits.hpp"
#include "graphql/schema.hpp"

namespace storefront::graphql {

struct execution {
    std::optional<boost::json::value>
        data;  // absent when execution could not start; JSON null when a non-null root field failed
    std::vector<error> errors;
    bool variables_failed = false;  // true: variable coercion failed (code BAD_USER_INPUT), no data
};

// Runs the chosen operation: coerces `variables`, executes selections (mutation root fields serially, in
// order), serialises leaves, applies @skip/@include, __typename, __schema/__type, aliases and fragments.
// An unknown operation name gives no data and one OPERATION_RESOLUTION_FAILURE error; more than
// max_fields resolved fields gives `data: null` and a BAD_REQUEST error.
[[nodiscard]] execution execute(
    const schema& s,
    const prepared_document& doc,
    std::string_view operation_name,
    const boost::json::object& variables,
    void* context,
    const limits& bounds
);

// {"errors":[...]} (only when not empty) then {"data":...} (only when present), serialised.
[[nodiscard]] std::string to_response_json(const execution& result);

}  // namespace storefront::graphql
