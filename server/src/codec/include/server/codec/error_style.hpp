#pragma once
// The shape of error bodies is a property of the surface a request addresses, chosen once from its path:
// /api/v1 (and everything that is not another surface) {"message","error","statusCode"}, /api/v3
// {"code","message"} as its OpenAPI document says, /graphql {"errors":[{"message","extensions":{"code"}}]}.
// Every layer that answers before or without a handler (session, rate limit, routing) goes through here.

#include <string_view>

#include "server/codec/response.hpp"

namespace storefront::server {

// How a surface shapes its error bodies.
enum class error_style {
    store,     // {"message":…,"error":"Not Found","statusCode":404}
    petstore,  // {"code":404,"message":…}
    graphql,   // {"errors":[{"message":…,"extensions":{"code":"NOT_FOUND"}}]}
};

// The surface of a request target (path and query; a "/sandbox/{id}" prefix is looked through): petstore
// under /api/v3, graphql for /graphql, store otherwise.
[[nodiscard]] error_style error_style_of_target(std::string_view target) noexcept;

// An error answer with `status` and `message` in `style`'s shape.
[[nodiscard]] response styled_error(error_style style, http::status status, std::string_view message);

// `r`, an error answer built in the /api/v1 shape (http_error and the routing errors: it keeps its
// error_message), rendered in `style`'s shape in place; status and headers stay. Answers in another shape,
// and successes, stay as they are. The one place an error meets its surface's shape.
void restyle_error(response& r, error_style style);

// The extensions.code GraphQL clients see for an HTTP status ("NOT_FOUND", "UNAUTHENTICATED", …).
[[nodiscard]] std::string_view graphql_code_of(http::status status) noexcept;

}  // namespace storefront::server
