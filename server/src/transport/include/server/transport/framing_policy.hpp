#pragma once
// HTTP/1.1 framing policy applied after the header is read and before any body byte is: the places where
// Beast 1.81 is laxer than RFC 9112 (and nginx), which a proxy in front of us might read differently
// (request smuggling). A refusal always closes the connection.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>

#include "server/ops/server_config.hpp"

namespace storefront::server {

namespace http = boost::beast::http;

struct framing_refusal {
    http::status status;
    std::string message;
};

// Where the header section in `bytes` ends (the index just past its blank line), or npos if it is not
// complete yet. A bare-LF blank line also ends it (and check_raw_header then refuses it).
[[nodiscard]] std::size_t header_section_end(std::string_view bytes) noexcept;

// The target of a header section's request line ("GET /api/v3/pet HTTP/1.1"), or empty: enough to choose
// the error shape of a refusal before the head is parsed, and the replay cache's key target.
[[nodiscard]] std::string_view request_target_of(std::string_view header) noexcept;

// Checks on the raw header section: size (431), number of fields (431), obs-fold continuation lines,
// bare CR or LF line endings and NUL bytes (400).
[[nodiscard]] std::optional<framing_refusal> check_raw_header(
    std::string_view header, const limits_config& limits
);

// Checks on the parsed header: HTTP version (505), Host, Transfer-Encoding and Content-Length rules (400,
// 501 for an unknown transfer coding), Expect (417). The body size is the route's (routing/dispatch).
[[nodiscard]] std::optional<framing_refusal> check_request_header(
    const http::request_header<>& header, const limits_config& limits
);

using request_parser = http::request_parser<http::string_body>;

// Runs a complete header section through every check and into `parser` (which must be fresh): raw checks,
// Beast's parse, then check_request_header. Nullopt when the request may go on to its body.
[[nodiscard]] std::optional<framing_refusal> admit_header(
    std::string_view header, request_parser& parser, const limits_config& limits
);

// The refusal for a Beast parse error on a request (431, 413 or 400).
[[nodiscard]] framing_refusal refusal_for_parse_error(const boost::system::error_code& ec);

}  // namespace storefront::server
