#pragma once
// What a handler answers: status, body bytes (owned, shared or prepared pre-serialised), a few extra
// headers; routing then picks its coding and ETag. The session writes it; handlers never touch sockets.

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/beast/http/status.hpp>
#include <boost/system/result.hpp>

#include "server/codec/api_error.hpp"
#include "server/codec/content_coding.hpp"
#include "server/codec/representation.hpp"
#include "server/codec/stream_answer.hpp"

namespace storefront::server {

namespace http = boost::beast::http;

struct response {
    http::status status = http::status::ok;
    std::string body;                                // used when shared_body and prepared are empty
    std::shared_ptr<const std::string> shared_body;  // pre-serialised bytes shared between requests
    std::shared_ptr<const prepared_body> prepared;   // the same, with their ETags and compressed forms
    std::string extra_headers;                       // complete "Name: value\r\n" lines
    std::string content_type;                        // empty: "application/json; charset=utf-8"
    bool close_connection = false;
    // An error not rendered yet (api_error.hpp): the body is empty until the edge writes it once in the
    // shape of the request's surface (render_error, error_style.hpp), which clears this. Empty for
    // successes and for answers already rendered.
    std::optional<api_error> error;
    // False for an answer that differs between identical requests on the same data (a random sample, a
    // session string, live counters): it gets no ETag and never a 304.
    bool deterministic = true;
    // A long-lived body (an event stream): the session writes the head without Content-Length, then runs
    // it until it ends and closes the connection. Never cached, tagged or compressed.
    std::shared_ptr<stream_answer> stream;

    // What routing's finaliser (routing/finish_response.hpp) chose for a 200 GET or HEAD: the content coding
    // of the payload (Content-Encoding), whether the choice depends on Accept-Encoding (Vary), the ETag.
    content_coding coding = content_coding::identity;
    bool vary_encoding = false;
    // CORS as dispatch chose it: an Origin --cors-origins allows, echoed with credentials (empty: `*`,
    // without), and whether the answer depends on Origin at all (Vary: Origin; --cors-origins is set).
    std::string cors_origin;
    bool vary_origin = false;

    // The bytes to send: the prepared ones in `coding`, else the shared ones, else `body`.
    [[nodiscard]] std::string_view payload() const {
        if (prepared) {
            return prepared->encoded(coding);
        }
        return shared_body ? std::string_view(*shared_body) : std::string_view(body);
    }

    // Appends one header line; `name` and `value` must be free of CR/LF (callers pass constants or digits).
    response& with_header(std::string_view name, std::string_view value) {
        extra_headers.append(name).append(": ").append(value).append("\r\n");
        return *this;
    }

    // The ETag header's value (empty: none). Held in place, so tagging an answer never allocates.
    [[nodiscard]] std::string_view etag() const noexcept { return {etag_.data(), etag_size_}; }
    // Sets it; `tag` is one of ours (strong_etag, derived_etag, coded_etag), at most max_etag_size
    // characters. A handler that sets the identity tag itself spares routing hashing the body.
    void set_etag(std::string_view tag);
    static constexpr std::size_t max_etag_size = 40;

  private:
    std::array<char, max_etag_size> etag_{};
    std::size_t etag_size_ = 0;
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

// The reason phrase of `status`: Beast's, or for a code Beast does not name (418, 425, 430, …) its class's
// ("Client Error", "Server Error", …) instead of Beast's "<unknown-status>".
[[nodiscard]] std::string_view reason_phrase(http::status status);

// The answer `error` gives, not rendered yet: its status, no body (the edge writes it, error_style.hpp).
[[nodiscard]] response error_answer(api_error error);

// Any status with `message`, not rendered yet (/api/v1's body {"message":…,"error":<reason phrase>,
// "statusCode":…} on that surface); also what the body decoders and admission answer with.
[[nodiscard]] response http_error(http::status status, std::string_view message);

// JSON bytes prepared once for many requests (a cached list page): their ETag and compressed forms too.
[[nodiscard]] inline response shared_json_response(std::shared_ptr<const prepared_body> body) {
    response r;
    r.prepared = std::move(body);
    return r;
}

}  // namespace storefront::server
