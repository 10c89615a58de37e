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

response http_error(http::status status, std::string_view message) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("message")
        .value(message)
        .key("error")
        .value(std::string(http::obsolete_reason(status)))
        .key("statusCode")
        .value(static_cast<std::int64_t>(status))
        .end_object();
    return json_response(status, std::move(out));
}

}  // namespace storefront::server
