// Serialises response heads by hand: perf measurements here show pre-built bytes written directly reach
// nginx's rate, while Beast's generic serializer does not (see shared/reference/performance.md).

#include "server/transport/wire.hpp"

#include <array>
#include <charconv>
#include <ctime>

namespace storefront::server {

namespace {

// Headers on every response (behaviour.md): JSON type, CORS (with the headers browser code may read:
// the lists' X-Total-Count and Link, caching and rate limits), no sniffing. Access-Control-Allow-Origin is
// `*` unless dispatch echoed an origin --cors-origins allows (then with credentials, never with `*`).
constexpr std::string_view server_header = "Server: storefront\r\n";
constexpr std::string_view json_type = "Content-Type: application/json; charset=utf-8\r\n";
constexpr std::string_view any_origin = "Access-Control-Allow-Origin: *\r\n";
constexpr std::string_view fixed_headers_after_origin =
    "Access-Control-Expose-Headers: X-Total-Count, Link, ETag, RateLimit, RateLimit-Policy, Retry-After, "
    "Idempotent-Replayed\r\n"
    "X-Content-Type-Options: nosniff\r\n";

void append_cors_origin(std::string& out, const response& r) {
    if (r.cors_origin.empty()) {
        out.append(any_origin);
        return;
    }
    out.append("Access-Control-Allow-Origin: ").append(r.cors_origin).append("\r\n");
    out.append("Access-Control-Allow-Credentials: true\r\n");
}

void append_number(std::string& out, std::size_t n) {
    std::array<char, 24> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), n);
    out.append(buf.data(), end);
}

}  // namespace

std::string_view cached_http_date() {
    thread_local std::time_t cached_second = 0;
    thread_local std::array<char, 40> text{};
    thread_local std::size_t length = 0;
    const std::time_t now = std::time(nullptr);
    if (now != cached_second) {
        std::tm parts{};
        gmtime_r(&now, &parts);
        length = std::strftime(text.data(), text.size(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
        cached_second = now;
    }
    return {text.data(), length};
}

void write_head(std::string& out, const response& r, const head_options& options) {
    const auto code = static_cast<unsigned>(r.status);
    out.clear();
    out.append("HTTP/1.1 ");
    append_number(out, code);
    out.push_back(' ');
    out.append(reason_phrase(r.status));
    out.append("\r\nDate: ");
    out.append(cached_http_date());
    out.append("\r\n");
    out.append(server_header);
    if (r.content_type.empty()) {
        out.append(json_type);
    } else {
        out.append("Content-Type: ").append(r.content_type).append("\r\n");
    }
    append_cors_origin(out, r);
    out.append(fixed_headers_after_origin);
    if (code != 204 && code != 304 && !r.stream) {  // a stream's body ends with the connection
        out.append("Content-Length: ");
        append_number(out, r.payload().size());
        out.append("\r\n");
    }
    if (r.coding != content_coding::identity) {
        out.append("Content-Encoding: ").append(coding_name(r.coding)).append("\r\n");
    }
    if (r.vary_encoding && r.vary_origin) {
        out.append("Vary: Accept-Encoding, Origin\r\n");
    } else if (r.vary_encoding) {
        out.append("Vary: Accept-Encoding\r\n");
    } else if (r.vary_origin) {
        out.append("Vary: Origin\r\n");
    }
    if (const std::string_view etag = r.etag(); !etag.empty()) {
        out.append("ETag: ").append(etag).append("\r\n");
    }
    out.append(r.extra_headers);
    out.append(options.more_headers);
    if (!options.keep_alive) {
        out.append("Connection: close\r\n");
    } else if (options.http10) {
        out.append("Connection: keep-alive\r\n");
    }
    out.append("\r\n");
}

}  // namespace storefront::server
