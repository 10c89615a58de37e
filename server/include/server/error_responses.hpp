#pragma once
// The one place that maps failures to HTTP: domain errc values, validation problems, and protocol errors.
// Bodies follow the public fake-store service: {"message":...,"error":"Bad Request","statusCode":400}.

#include <string_view>

#include <boost/beast/http/verb.hpp>
#include <boost/system/error_code.hpp>

#include "core/validation.hpp"
#include "server/response.hpp"

namespace storefront::server {

// errc::invalid_credentials/invalid_token -> 401, invalid_refresh_token -> 401 "Invalid",
// not_found -> 404, busy -> 503 with Retry-After. Unknown codes -> 500.
[[nodiscard]] response error_response(boost::system::error_code ec);

// 400 with `message` the array of every problem found.
[[nodiscard]] response validation_failed(const core::validation_errors& errors);

// Any status with `message` a single string and `error` the status's reason phrase.
[[nodiscard]] response http_error(http::status status, std::string_view message);

// 404 "Cannot GET /path" for a path no route knows.
[[nodiscard]] response route_not_found(std::string_view method, std::string_view path);

// 405 for a known path and an unsupported method, with the `Allow` header.
[[nodiscard]] response method_not_allowed(
    std::string_view method, std::string_view path, std::string_view allow
);

// 500 with a generic body; the details go to the log only.
[[nodiscard]] response internal_error();

}  // namespace storefront::server
