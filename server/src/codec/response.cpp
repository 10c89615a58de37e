// Error answers not rendered yet (api_error.hpp), reason phrases, and the in-place ETag.

#include "server/codec/response.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

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

response error_answer(api_error error) {
    response r;
    r.status = error.status;
    r.error.emplace(std::move(error));
    return r;
}

response http_error(http::status status, std::string_view message) {
    return error_answer({status, std::string(message), {}});
}

}  // namespace storefront::server
