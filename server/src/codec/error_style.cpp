// Error answers: made unrendered from an api_error (http_error, error_answer: response.hpp), with the
// reason phrases of their statuses, and rendered once in the shape of the addressed surface
// (error_style.hpp).

#include "server/codec/error_style.hpp"

#include <string>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

// The path of `target` without a leading "/sandbox/{id}" (whatever the id: a bad one is refused later,
// in this same shape).
std::string_view surface_path(std::string_view target) noexcept {
    std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view sandbox = "/sandbox/";
    if (path.starts_with(sandbox)) {
        const auto end = path.find('/', sandbox.size());
        path = end == std::string_view::npos ? std::string_view{} : path.substr(end);
    }
    return path;
}

bool under(std::string_view path, std::string_view prefix) noexcept {
    return path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '/');
}

}  // namespace

std::string_view reason_phrase(http::status status) {
    const std::string_view beast = http::obsolete_reason(status);
    if (beast != "<unknown-status>") {
        return beast;
    }
    switch (static_cast<unsigned>(status) / 100) {
        case 1:
            return "Informational";
        case 2:
            return "Success";
        case 3:
            return "Redirection";
        case 4:
            return "Client Error";
        default:
            return "Server Error";
    }
}

response error_answer(api_error error) {
    response r;
    r.status = error.status;
    r.error.emplace(std::move(error));
    return r;
}

response http_error(http::status status, std::string_view message) {
    return error_answer({status, std::string(message), {}});
}

error_style error_style_of_target(std::string_view target) noexcept {
    const std::string_view path = surface_path(target);
    if (under(path, "/api/v3")) {
        return error_style::petstore;
    }
    if (under(path, "/graphql")) {
        return error_style::graphql;
    }
    return error_style::store;
}

std::string_view graphql_code_of(http::status status) noexcept {
    switch (status) {
        case http::status::bad_request:
            return "BAD_REQUEST";
        case http::status::unauthorized:
            return "UNAUTHENTICATED";
        case http::status::forbidden:
            return "FORBIDDEN";
        case http::status::not_found:
            return "NOT_FOUND";
        case http::status::method_not_allowed:
            return "METHOD_NOT_ALLOWED";
        case http::status::not_acceptable:
            return "NOT_ACCEPTABLE";
        case http::status::request_timeout:
            return "REQUEST_TIMEOUT";
        case http::status::payload_too_large:
            return "PAYLOAD_TOO_LARGE";
        case http::status::uri_too_long:
            return "URI_TOO_LONG";
        case http::status::unsupported_media_type:
            return "UNSUPPORTED_MEDIA_TYPE";
        case http::status::too_many_requests:
            return "RATE_LIMITED";
        case http::status::request_header_fields_too_large:
            return "REQUEST_HEADER_FIELDS_TOO_LARGE";
        case http::status::service_unavailable:
            return "SERVICE_UNAVAILABLE";
        case http::status::insufficient_storage:
            return "INSUFFICIENT_STORAGE";
        default:
            return static_cast<unsigned>(status) >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
    }
}

std::string error_body(const api_error& error, error_style style) {
    if (style == error_style::store && !error.store_body.empty()) {
        return error.store_body;
    }
    const auto code = static_cast<std::int64_t>(error.status);
    std::string out;
    json_writer w(out);
    w.begin_object();
    switch (style) {
        case error_style::petstore:
            w.key("code").value(code).key("message").value(error.message);
            break;
        case error_style::graphql:
            w.key("errors").begin_array().begin_object().key("message").value(error.message);
            w.key("extensions").begin_object().key("code").value(graphql_code_of(error.status)).end_object();
            w.end_object().end_array();
            break;
        case error_style::store:
            w.key("message").value(error.message).key("error").value(reason_phrase(error.status));
            w.key("statusCode").value(code);
            break;
    }
    w.end_object();
    return out;
}

void render_error(response& r, error_style style) {
    if (!r.error) {
        return;
    }
    r.body = error_body(*r.error, style);
    r.error.reset();
    if (style != error_style::store) {
        r.content_type.clear();  // JSON, whatever the handler meant for its own surface
    }
}

response rendered(response r, error_style style) {
    render_error(r, style);
    return r;
}

response styled_error(error_style style, http::status status, std::string_view message) {
    return rendered(http_error(status, message), style);
}

}  // namespace storefront::server
