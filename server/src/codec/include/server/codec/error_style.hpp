#pragma once
// The shape of error bodies is a property of the surface a request addresses, chosen once from its path:
// /api/v1 (and everything that is not another surface) {"message","error","statusCode"}, /api/v3
// {"code","message"} as its OpenAPI document says, /graphql {"errors":[{"message","extensions":{"code"}}]}.
// Every error is rendered here, once, for its surface (api_error.hpp).

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

// The body of `error` in `style`'s shape: /api/v1 {"message":…,"error":<reason phrase>,"statusCode":…}
// (or the error's own /api/v1 body), /api/v3 {"code":…,"message":…}, GraphQL's errors array.
[[nodiscard]] std::string error_body(const api_error& error, error_style style);

// `r`'s error not rendered yet (response::error) written in `style`'s shape, once; status and headers
// stay. Successes and answers already rendered stay as they are.
void render_error(response& r, error_style style);

// `r` with render_error done: an answer whose surface is known where it is made.
[[nodiscard]] response rendered(response r, error_style style);

// An error answer with `status` and `message` in `style`'s shape, rendered at once.
[[nodiscard]] response styled_error(error_style style, http::status status, std::string_view message);

// The extensions.code GraphQL clients see for an HTTP status ("NOT_FOUND", "UNAUTHENTICATED", …).
[[nodiscard]] std::string_view graphql_code_of(http::status status) noexcept;

}  // namespace storefront::server
