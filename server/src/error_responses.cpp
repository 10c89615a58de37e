// Failure -> HTTP mapping, in one place so every endpoint answers errors the same way.

#include "server/error_responses.hpp"

#include <string>

#include "core/errc.hpp"
#include "server/json_writer.hpp"

namespace storefront::server {

namespace {

std::string reason_of(http::status status) {
    return std::string(http::obsolete_reason(status));
}

std::string error_body(http::status status, std::string_view message) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("message")
        .value(message)
        .key("error")
        .value(reason_of(status))
        .key("statusCode")
        .value(static_cast<std::int64_t>(status))
        .end_object();
    return out;
}

response unauthorized(std::string_view challenge) {
    response r = json_response(http::status::unauthorized, R"({"message":"Unauthorized","statusCode":401})");
    if (!challenge.empty()) {
        r.with_header("WWW-Authenticate", challenge);
    }
    return r;
}

}  // namespace

response error_response(boost::system::error_code ec) {
    if (ec.category() == core::storefront_category()) {
        switch (static_cast<core::errc>(ec.value())) {
            case core::errc::invalid_credentials:
                return unauthorized({});
            case core::errc::invalid_token:
                return unauthorized(R"(Bearer error="invalid_token")");
            case core::errc::invalid_refresh_token:
                return json_response(
                    http::status::unauthorized,
                    R"({"message":"Invalid","error":"Unauthorized","statusCode":401})"
                );
            case core::errc::not_found:
                return http_error(http::status::not_found, "Not found");
            case core::errc::busy:
                return http_error(http::status::service_unavailable, "Server busy, retry later")
                    .with_header("Retry-After", "1");
            case core::errc::ok:
                break;
        }
    }
    return internal_error();
}

response validation_failed(const core::validation_errors& errors) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("message").begin_array();
    for (const auto& message : errors.messages) {
        w.value(message);
    }
    w.end_array().key("error").value("Bad Request").key("statusCode").value(std::int64_t{400}).end_object();
    return json_response(http::status::bad_request, std::move(out));
}

response http_error(http::status status, std::string_view message) {
    return json_response(status, error_body(status, message));
}

response route_not_found(std::string_view method, std::string_view path) {
    return http_error(http::status::not_found, "Cannot " + std::string(method) + " " + std::string(path));
}

response method_not_allowed(std::string_view method, std::string_view path, std::string_view allow) {
    response r = http_error(
        http::status::method_not_allowed,
        "Method " + std::string(method) + " not allowed on " + std::string(path)
    );
    r.with_header("Allow", allow);
    return r;
}

response internal_error() {
    return json_response(
        http::status::internal_server_error, R"({"statusCode":500,"message":"Internal server error"})"
    );
}

}  // namespace storefront::server
