#pragma once
// The last step of every answer, in one place for every route: a 200 to GET or HEAD gets its validator
// and its content coding. A deterministic answer gets a strong ETag, and a matching If-None-Match turns it
// into a 304 without a body; a compressible one (JSON, text) gets Vary: Accept-Encoding and, over
// min_compressed_body_size bytes, the coding Accept-Encoding prefers.

#include <boost/beast/http/message.hpp>

#include "server/codec/request_fields.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

// Chooses `r`'s representation for the request `head`: sets its ETag (deterministic answers), Vary and
// content coding (compressible media types), and answers 304 Not Modified, without a body, when If-None-Match
// names the ETag (weak comparison, `*` too). Anything but a 200 to GET or HEAD is left as it is, unhashed.
// Prepared bodies bring their tag and compressed forms, made once; other bodies are hashed and compressed
// here. Throws std::runtime_error when a compressor fails.
void finish_response(http::verb verb, const request_fields& fields, response& r);

// The same with the fields read from `head` (tests and one-off callers).
void finish_response(const http::request_header<>& head, response& r);

}  // namespace storefront::server
