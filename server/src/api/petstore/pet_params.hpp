#pragma once
// Path and query helpers shared by the pet surface handlers (private to server_lib).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/flat_json.hpp"
#include "core/query.hpp"
#include "server/api/petstore/pet_json.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server::pet_params {

// The integer path segment `name`; a 400 "Invalid ID supplied: <name> must be an integer" otherwise.
[[nodiscard]] inline or_response<std::int64_t> path_id(const request_context& ctx, std::string_view name) {
    const auto id = core::parse_integer(ctx.param(name));
    if (!id) {
        return pet_error(
            http::status::bad_request, "Invalid ID supplied: " + std::string(name) + " must be an integer"
        );
    }
    return static_cast<std::int64_t>(*id);
}

// The query parameter `name` if given once; nullopt if absent; a 400 if given more than once.
[[nodiscard]] inline or_response<std::optional<std::string>> single_query(
    const request_context& ctx, std::string_view name
) {
    const std::size_t count = core::count_of(ctx.query, name);
    if (count > 1) {
        return pet_error(http::status::bad_request, std::string(name) + " must be given at most once");
    }
    if (count == 0) {
        return std::optional<std::string>();
    }
    return std::optional<std::string>(std::string(*core::single_value(ctx.query, name)));
}

// The request body (JSON or a form) read by `read(document, args...)` (read_pet,
// read_order, read_user): the value, or the 415/400 answer in the petstore's error shape.
template <class Read, class... Args>
[[nodiscard]] auto read_body(const request_context& ctx, Read read, Args... args)
    -> or_response<typename std::invoke_result_t<Read&, const pet_document&, Args...>::value_type> {
    auto decoded = decode_pet_document(ctx.request[http::field::content_type], ctx.request.body());
    if (!decoded) {
        return std::move(decoded).error();
    }
    auto value = read(*decoded, args...);
    if (!value) {
        return pet_validation_failed(value.error());
    }
    return std::move(*value);
}

// 200 with a bare JSON string body, as the petstore answers deletes, login and logout.
[[nodiscard]] inline response json_string_response(std::string_view text) {
    return json_response(http::status::ok, core::write_json_string(text));
}

}  // namespace storefront::server::pet_params
