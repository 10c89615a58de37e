#include "server/codec/stream_answer.hpp"

#include <utility>

#include "server/codec/response.hpp"

namespace storefront::server {

response event_stream_response(std::shared_ptr<stream_answer> stream) {
    if (!stream) {
        response full = http_error(
            http::status::service_unavailable, "Too many event streams open on this server, retry later"
        );
        full.with_header("Retry-After", "5");
        return full;
    }
    response r;
    r.status = http::status::ok;
    r.content_type = "text/event-stream; charset=utf-8";
    r.deterministic = false;
    r.with_header("Cache-Control", "no-cache, no-store").with_header("X-Accel-Buffering", "no");
    r.stream = std::move(stream);
    return r;
}

}  // namespace storefront::server
