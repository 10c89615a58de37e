#pragma once
// What a handler answers: status, body bytes (owned or shared pre-serialised), a few extra headers.
// The session turns it into wire bytes; handlers never touch sockets.

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <boost/beast/http/status.hpp>
#include <boost/system/result.hpp>

namespace storefront::server {

namespace http = boost::beast::http;

struct response {
    http::status status = http::status::ok;
    std::string body;                                // used when shared_body is empty
    std::shared_ptr<const std::string> shared_body;  // pre-serialised bytes shared between requests
    std::string extra_headers;                       // complete "Name: value\r\n" lines
    std::string content_type;                        // empty: "application/json; charset=utf-8"
    bool close_connection = false;

    [[nodiscard]] std::string_view payload() const noexcept {
        return shared_body ? std::string_view(*shared_body) : std::string_view(body);
    }

    // Appends one header line; `name` and `value` must be free of CR/LF (callers pass constants or digits).
    response& with_header(std::string_view name, std::string_view value) {
        extra_headers.append(name).append(": ").append(value).append("\r\n");
        return *this;
    }
};

// A value, or the ready answer (usually a 4xx) to send instead:
//   auto fields = decode_body(...);
//   if (!fields) { co_return std::move(fields).error(); }
template <class T>
using or_response = boost::system::result<T, response>;

[[nodiscard]] inline response json_response(http::status status, std::string body) {
    response r;
    r.status = status;
    r.body = std::move(body);
    return r;
}

// Any status with the /api/v1 error body {"message":…,"error":<reason phrase>,"statusCode":…}; also what
// the body decoders and the session answer with for protocol errors.
[[nodiscard]] response http_error(http::status status, std::string_view message);

[[nodiscard]] inline response shared_json_response(std::shared_ptr<const std::string> body) {
    response r;
    r.shared_body = std::move(body);
    return r;
}

}  // namespace storefront::server
