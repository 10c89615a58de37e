// Request framing policy (RFC 9112 §6 and §2.2): one transfer coding (chunked), one plain Content-Length,
// never both, one Host, no obs-fold, bounded header size and field count.

#include "server/transport/framing_policy.hpp"

#include <algorithm>
#include <cctype>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include "core/text.hpp"
#include "server/codec/request_fields.hpp"

namespace storefront::server {

namespace {

framing_refusal bad_request(std::string message) {
    return {http::status::bad_request, std::move(message)};
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Transfer codings we accept by name: chunked, and identity, which RFC 9112 dropped and which is then
// refused as a 400. Any other coding (gzip included) is one we do not implement: 501 (RFC 9112 §6.1).
bool is_known_coding(std::string_view coding) {
    return boost::beast::iequals(coding, "chunked") || boost::beast::iequals(coding, "identity");
}

std::optional<framing_refusal> check_transfer_encoding(std::string_view value) {
    std::size_t codings = 0;
    bool chunked_only = true;
    std::size_t start = 0;
    while (start <= value.size()) {
        const auto comma = value.find(',', start);
        const auto coding = core::trim_spaces(
            value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)
        );
        if (!coding.empty()) {
            ++codings;
            const std::string_view name = core::trim_spaces(coding.substr(0, coding.find(';')));
            if (!is_known_coding(name) || name.size() != coding.size()) {
                return framing_refusal{
                    http::status::not_implemented,
                    "Transfer-Encoding " + std::string(coding) + " is not supported"};
            }
            chunked_only = chunked_only && boost::beast::iequals(name, "chunked");
        }
        if (comma == std::string_view::npos) {
            break;
        }
        start = comma + 1;
    }
    if (codings != 1 || !chunked_only) {
        return bad_request("Transfer-Encoding must be exactly chunked");
    }
    return std::nullopt;
}

// A well-formed "HTTP/x.y" at the end of the request line other than 1.0 and 1.1 is a version we do not
// speak (505); Beast would only call it malformed.
std::optional<framing_refusal> check_version(std::string_view request_line) {
    if (!request_line.empty() && request_line.back() == '\r') {
        request_line.remove_suffix(1);
    }
    const auto space = request_line.rfind(' ');
    if (space == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view version = request_line.substr(space + 1);
    const bool well_formed = version.size() == 8 && version.substr(0, 5) == "HTTP/" && version[6] == '.' &&
                             std::isdigit(static_cast<unsigned char>(version[5])) &&
                             std::isdigit(static_cast<unsigned char>(version[7]));
    if (well_formed && version != "HTTP/1.1" && version != "HTTP/1.0") {
        return framing_refusal{http::status::http_version_not_supported, "HTTP version not supported"};
    }
    return std::nullopt;
}

}  // namespace

std::string_view request_target_of(std::string_view header) noexcept {
    const auto line = header.substr(0, header.find('\r'));
    const auto first = line.find(' ');
    if (first == std::string_view::npos) {
        return {};
    }
    const auto rest = line.substr(first + 1);
    return rest.substr(0, rest.find(' '));
}

std::size_t header_section_end(std::string_view bytes) noexcept {
    for (std::size_t i = bytes.find('\n'); i != std::string_view::npos; i = bytes.find('\n', i + 1)) {
        if (i + 1 < bytes.size() && bytes[i + 1] == '\n') {
            return i + 2;
        }
        if (i + 2 < bytes.size() && bytes[i + 1] == '\r' && bytes[i + 2] == '\n') {
            return i + 3;
        }
    }
    return std::string_view::npos;
}

std::optional<framing_refusal> check_raw_header(std::string_view header, const limits_config& limits) {
    if (header.size() > limits.header_limit) {
        return framing_refusal{
            http::status::request_header_fields_too_large, "Request header fields too large"};
    }
    if (auto refusal = check_version(header.substr(0, header.find('\n')))) {
        return refusal;
    }
    std::size_t fields = 0;
    std::size_t line_start = 0;
    while (line_start < header.size()) {
        const auto lf = header.find('\n', line_start);
        if (lf == std::string_view::npos || lf == line_start || header[lf - 1] != '\r') {
            return bad_request("Header lines must end with CRLF");
        }
        const std::string_view line = header.substr(line_start, lf - 1 - line_start);
        if (line.find('\r') != std::string_view::npos || line.find('\0') != std::string_view::npos) {
            return bad_request("Malformed header line");
        }
        if (line_start != 0 && !line.empty()) {
            if (line.front() == ' ' || line.front() == '\t') {
                return bad_request("Obsolete header line folding is not allowed");
            }
            ++fields;
        }
        line_start = lf + 1;
    }
    if (fields > limits.max_header_fields) {
        return framing_refusal{http::status::request_header_fields_too_large, "Too many header fields"};
    }
    return std::nullopt;
}

std::optional<framing_refusal>
check_request_header(const http::request_header<>& header, const limits_config&) {
    if (header.version() != 10 && header.version() != 11) {
        return framing_refusal{http::status::http_version_not_supported, "HTTP version not supported"};
    }
    const request_fields fields = request_fields::of(header);
    if (fields.hosts > 1) {
        return bad_request("More than one Host header");
    }
    if (fields.hosts == 0 && header.version() == 11) {
        return bad_request("Missing Host header");
    }
    if (fields.transfer_encodings > 0) {
        if (header.version() == 10) {
            return bad_request("Transfer-Encoding is not allowed in HTTP/1.0");
        }
        if (fields.transfer_encodings > 1) {
            return bad_request("More than one Transfer-Encoding header");
        }
        if (fields.content_lengths > 0) {
            return bad_request("Content-Length and Transfer-Encoding together");
        }
        if (auto refusal = check_transfer_encoding(fields.transfer_encoding)) {
            return refusal;
        }
    }
    if (fields.content_lengths > 1) {
        return bad_request("More than one Content-Length header");
    }
    if (fields.content_lengths == 1) {
        if (!all_digits(fields.content_length) || fields.content_length.size() > 18) {
            return bad_request("Content-Length must be a plain decimal number");
        }
    }
    if (fields.expects > 0) {
        if (fields.expects > 1 || !boost::beast::iequals(core::trim_spaces(fields.expect), "100-continue")) {
            return framing_refusal{
                http::status::expectation_failed, "Only Expect: 100-continue is supported"};
        }
    }
    return std::nullopt;
}

std::optional<framing_refusal> admit_header(
    std::string_view header, request_parser& parser, const limits_config& limits
) {
    if (auto refusal = check_raw_header(header, limits)) {
        return refusal;
    }
    parser.header_limit(static_cast<std::uint32_t>(limits.header_limit + 4));  // ours is checked above
    parser.eager(false);
    boost::system::error_code ec;
    parser.put(boost::asio::buffer(header.data(), header.size()), ec);
    if (ec || !parser.is_header_done()) {
        return refusal_for_parse_error(ec);
    }
    return check_request_header(parser.get().base(), limits);
}

framing_refusal refusal_for_parse_error(const boost::system::error_code& ec) {
    if (ec == http::error::header_limit) {
        return {http::status::request_header_fields_too_large, "Request header fields too large"};
    }
    if (ec == http::error::body_limit) {
        return {http::status::payload_too_large, "Request body too large"};
    }
    return bad_request("Malformed HTTP request");
}

}  // namespace storefront::server
