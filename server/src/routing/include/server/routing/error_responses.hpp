#pragma once
// The one place that maps failures to HTTP: domain errc values, validation problems, protocol errors and
// storage failures. Each answer holds its api_error (codec/api_error.hpp) and is rendered once, at the edge,
// in the shape of the request's surface: /api/v1 bodies follow the public fake-store service
// {"message":...,"error":"Bad Request","statusCode":400}, /api/v3 bodies are {"code":400,"message":...}.

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <boost/beast/http/verb.hpp>
#include <boost/system/error_code.hpp>

#include "core/compat.hpp"
#include "core/errc.hpp"
#include "core/validation.hpp"
#include "server/codec/error_style.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

// The one errc -> HTTP mapping of /api/v1: invalid_credentials/invalid_token/seed_user_read_only -> 401,
// invalid_refresh_token -> 401 "Invalid", invalid_reference -> 400, forbidden/seed_read_only -> 403,
// not_found -> 404, conflict/in_use -> 409, storage_full -> 507, busy/storage_unavailable -> 503 with
// Retry-After. Unknown codes -> 500. `message`, when given, replaces the default text of the body.
[[nodiscard]] response error_response(boost::system::error_code ec, std::string_view message = {});

// 400 with `message` the array of every problem found.
[[nodiscard]] response validation_failed(const core::validation_errors& errors);

// 429 for a login the login brake refused (too many failed logins for the account or the client), with
// Retry-After: the seconds until one more attempt is admitted.
[[nodiscard]] response login_braked(std::uint32_t retry_after);

// A storage backend that is down (storage::storage_unavailable) or too busy to take the call (the offload
// pool's offload_rejected), thrown anywhere: nothing was changed. The one place that knows these exceptions.
struct storage_failure {
    core::errc code;   // storage_unavailable or busy
    std::string what;  // for the log
};
// `failure` as a storage failure, or nullopt for any other exception.
[[nodiscard]] std::optional<storage_failure> storage_failure_of(const std::exception_ptr& failure);

// 404 "Cannot GET /path" for a path no route knows.
[[nodiscard]] response route_not_found(std::string_view method, std::string_view path);

// 405 for a known path and an unsupported method, with the `Allow` header.
[[nodiscard]] response method_not_allowed(
    std::string_view method, std::string_view path, std::string_view allow
);

// An /api/v1 entity nothing has: its type as the public service names it ("Product", "Category", "User")
// and the key it was looked up by ("id" 999 or "slug" "x").
struct missing_entity {
    std::string_view type;
    std::string_view key_name;
    std::variant<std::int64_t, std::string> key;
};

// The one answer to an /api/v1 id or slug that names nothing (read, update or delete): 404 with `message`
// under compat_mode::none; under public_service the public service's 400
// {"path":`path`,"timestamp":"<now, ISO-8601 UTC ms>","name":"EntityNotFoundError","message":"Could not find
// any entity of type \"Product\" matching: {\n    \"id\": 999\n}"} (the key as JSON.stringify(…, null, 4)
// writes it).
[[nodiscard]] response entity_not_found(
    core::compat_mode mode, std::string_view path, const missing_entity& what, std::string_view message
);

// A known path and a method none of its routes takes: method_not_allowed (405 with Allow) under
// compat_mode::none; under public_service the public router's 404 "Cannot DELETE /api/v1/products/" with
// `requested_path` as the client sent it (route_not_found's body).
[[nodiscard]] response wrong_method(
    core::compat_mode mode,
    std::string_view method,
    std::string_view requested_path,
    std::string_view path,
    std::string_view allow
);

// 500 with a generic body; the details go to the log only.
[[nodiscard]] response internal_error();

// --- Pet store surface (/api/v3): its own texts, rendered {"code":400,"message":"..."} there.

// Any status with the petstore body.
[[nodiscard]] response pet_error(http::status status, std::string_view message);

// 400 naming every problem found, joined with "; ".
[[nodiscard]] response pet_validation_failed(const core::validation_errors& errors);

// not_found -> 404, conflict -> 409, storage_full -> 507, busy -> 503 with Retry-After,
// invalid_token/invalid_credentials -> 401; anything else -> 500.
[[nodiscard]] response pet_error_response(boost::system::error_code ec);

// The same, with not_found -> 404 naming what was looked for: `subject` "Pet" gives "Pet not found".
[[nodiscard]] response pet_error_response(boost::system::error_code ec, std::string_view subject);

// 401 for missing or bad credentials, with one WWW-Authenticate challenge per accepted scheme:
// `ApiKey realm="storefront-pet", header="api_key"` when `api_key` is accepted, and
// `Bearer realm="storefront-pet", scope="<scope>"` (plus error="invalid_token" when `bad_token`)
// when a bearer token with `scope` is.
[[nodiscard]] response pet_unauthorized(bool api_key, std::string_view scope, bool bad_token);

// 403 for a valid bearer token that lacks `scope` (RFC 6750 §3.1 insufficient_scope).
[[nodiscard]] response pet_forbidden(std::string_view scope);

// RFC 6749 §5.2 token endpoint error, rendered at once (not an error of the surface's shape):
// {"error":"invalid_client","error_description":"..."} with Cache-Control: no-store; a 401 also gets
// `WWW-Authenticate: Basic realm="storefront-pet"`.
[[nodiscard]] response oauth_error(http::status status, std::string_view error, std::string_view description);

}  // namespace storefront::server
