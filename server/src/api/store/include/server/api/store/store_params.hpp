#pragma once
// Path, body and answer helpers shared by the /api/v1 handlers (private to server_lib).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/url/decode_view.hpp>
#include <boost/url/pct_string_view.hpp>

#include "core/catalogue_rules.hpp"
#include "core/input.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "server/api/store/store_services.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server::store_params {

// The segment captured as `name`, percent-decoded (the router checked the escapes when it parsed the target).
[[nodiscard]] inline std::string decoded_param(const request_context& ctx, std::string_view name) {
    const auto encoded = boost::urls::make_pct_string_view(ctx.param(name));
    if (!encoded) {
        return std::string(ctx.param(name));
    }
    std::string out;
    for (const char c : boost::urls::decode_view(*encoded)) {
        out += c;
    }
    return out;
}

// The integer {id} segment; the public service's 400 "Validation failed (numeric string is expected)"
// for anything else (also ids beyond int64).
[[nodiscard]] inline or_response<std::int64_t> path_id(const request_context& ctx) {
    const auto id = core::parse_path_id(decoded_param(ctx, "id"));
    if (!id) {
        return http_error(http::status::bad_request, core::numeric_id_expected);
    }
    return *id;
}

// The {slug} segment, decoded.
[[nodiscard]] inline std::string path_slug(const request_context& ctx) {
    return decoded_param(ctx, "slug");
}

// The same in path_id's shape (a slug is never refused), for store_lists::serve_item.
[[nodiscard]] inline or_response<std::string> path_slug_key(const request_context& ctx) {
    return path_slug(ctx);
}

// The JSON or form body read by `rule` (one of core's read_* functions): the value, or the 4xx to answer
// (415 media type, 400 malformed body, 400 with every validation problem).
template <class Rule>
[[nodiscard]] auto validated_body(const request_context& ctx, Rule rule)
    -> or_response<typename std::invoke_result_t<Rule, const core::input_fields&>::value_type> {
    const auto input = decode_input(ctx.request[http::field::content_type], ctx.request.body());
    if (!input) {
        return input.error();
    }
    auto value = rule(*input);
    if (!value) {
        return validation_failed(value.error());
    }
    return std::move(*value);
}

// The request's path as the client sent it, without the query.
[[nodiscard]] inline std::string_view requested_path(const request_context& ctx) {
    const std::string_view target = ctx.request.target();
    return target.substr(0, target.find('?'));
}

// The answer to an {id} of `type` ("Product", "Category", "User") that names nothing: 404 "Product 999 not
// found", or what --compat asks for (entity_not_found).
[[nodiscard]] inline response entity_missing(
    const request_context& ctx, const store_services& app, std::string_view type, std::int64_t id
) {
    return entity_not_found(app.compat(), requested_path(ctx), {type, "id", id}, missing_text(type, id));
}

// The same for a {slug}: 404 "Product with slug \"x\" not found".
[[nodiscard]] inline response entity_missing(
    const request_context& ctx, const store_services& app, std::string_view type, const std::string& slug
) {
    return entity_not_found(
        app.compat(),
        requested_path(ctx),
        {type, "slug", slug},
        std::string(type) + " with slug \"" + slug + "\" not found"
    );
}

// The answer to `refused`, a write of the `type` with `id` the store refused: entity_missing for an id that
// names nothing, else the error with the refusal's text.
[[nodiscard]] inline response refusal_answer(
    const request_context& ctx,
    const store_services& app,
    std::string_view type,
    std::int64_t id,
    const refusal& refused
) {
    if (refused.code == core::errc::not_found) {
        return entity_missing(ctx, app, type, id);
    }
    return error_response(refused.code, refused.message);
}

// 200 `true`, as the public service answers a delete.
[[nodiscard]] inline response deleted() {
    return json_response(http::status::ok, "true");
}

}  // namespace storefront::server::store_params
