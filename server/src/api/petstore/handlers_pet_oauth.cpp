// The OAuth 2.0 token endpoint of /api/v3: client-credentials grant (RFC 6749 §4.4) with HTTP Basic
// client authentication; errors as RFC 6749 §5.2 bodies. Issues pet_tokens JWTs carrying the scope.

#include <algorithm>

#include <boost/algorithm/string/predicate.hpp>

#include "core/pet_auth.hpp"
#include "server/api/petstore/handlers.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) {
        out += out.empty() ? s : " " + s;
    }
    return out;
}

}  // namespace

// POST /oauth/token grant_type=client_credentials&scope=... (form; Basic client auth) : a bearer token
handler_result handle_post_pet_oauth_token(request_context& ctx, pet_services& app) {
    const auto credentials = core::parse_basic_authorization(ctx.request[http::field::authorization]);
    const core::pet_client* client =
        credentials ? app.pet_keys().authenticate(credentials->id, credentials->secret) : nullptr;
    if (client == nullptr) {
        co_return oauth_error(
            http::status::unauthorized,
            "invalid_client",
            "authenticate the client with HTTP Basic (client id and secret)"
        );
    }
    const std::string_view content_type = ctx.request[http::field::content_type];
    const std::string_view body = ctx.request.body();
    const auto params = parse_form(body);
    if (!boost::algorithm::istarts_with(content_type, "application/x-www-form-urlencoded") || !params) {
        co_return oauth_error(
            http::status::bad_request, "invalid_request", "send an application/x-www-form-urlencoded body"
        );
    }
    std::optional<std::string> grant_type;
    std::optional<std::string> scope;
    for (const auto& param : *params) {
        std::optional<std::string>* slot = param.name == "grant_type" ? &grant_type
                                           : param.name == "scope"    ? &scope
                                                                      : nullptr;
        if (slot == nullptr) {
            continue;
        }
        if (slot->has_value()) {
            co_return oauth_error(http::status::bad_request, "invalid_request", param.name + " is repeated");
        }
        *slot = param.value;
    }
    if (!grant_type) {
        co_return oauth_error(http::status::bad_request, "invalid_request", "grant_type is required");
    }
    if (*grant_type != "client_credentials") {
        co_return oauth_error(
            http::status::bad_request, "unsupported_grant_type", "only client_credentials is supported"
        );
    }
    const auto granted = core::grant_scopes(scope, client->scopes);
    if (!granted) {
        co_return oauth_error(
            http::status::bad_request,
            "invalid_scope",
            "the client may request only: " + join_scopes(client->scopes)
        );
    }
    const std::string granted_scope = join_scopes(*granted);
    const auto& tokens = app.pet_tokens();
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("access_token")
        .value(tokens.issue(client->id, granted_scope, core::unix_now()))
        .key("token_type")
        .value("Bearer")
        .key("expires_in")
        .value(static_cast<std::int64_t>(tokens.lifetime().count()))
        .key("scope")
        .value(granted_scope)
        .end_object();
    response r = json_response(http::status::ok, std::move(out));
    r.with_header("Cache-Control", "no-store").with_header("Pragma", "no-cache");
    co_return r;
}

}  // namespace storefront::server
