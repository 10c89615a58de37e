// The error body every layer can build: the session's protocol refusals, the body decoders' 400/415 and
// the /api/v1 error mapping all answer {"message":…,"error":…,"statusCode":…}; and the in-place ETag.

#include "server/codec/response.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

void response::set_etag(std::string_view tag) {
    if (tag.size() > max_etag_size) {
        throw std::length_error("response::set_etag: tag too long");
    }
    std::copy(tag.begin(), tag.end(), etag_.begin());
    etag_size_ = tag.size();
}

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

response http_error(http::status status, std::string_view message) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("message")
        .value(message)
        .key("error")
        .value(reason_phrase(status))
        .key("statusCode")
        .value(static_cast<std::int64_t>(status))
        .end_object();
    return store_error(status, std::move(out), message);
}

response store_error(http::status status, std::string body, std::string_view message) {
    response r = json_response(status, std::move(body));
    r.error_message.emplace(message);
    return r;
}

}  // namespace storefront::server
