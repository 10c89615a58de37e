// Origins compared as bytes, as browsers serialise them (cors_origins.hpp); Referer cut to its origin.

#include "server/routing/browser_origin.hpp"

#include <string>

#include <boost/beast/core/string.hpp>

#include "core/text.hpp"
#include "server/codec/cookies.hpp"

namespace storefront::server {

namespace {

constexpr std::string_view cross_site_refused =
    "Cross-site request refused: a state-changing request authenticated by the login cookie must come "
    "from this service's origin or one --cors-origins allows (Origin header); clients that are not "
    "browsers send Authorization: Bearer <token> instead";

// "scheme://host[:port]" of an absolute URL, or empty.
std::string_view origin_of_url(std::string_view url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) {
        return {};
    }
    const auto path = url.find_first_of("/?#", scheme_end + 3);
    return url.substr(0, path);
}

bool same_or_allowed(
    std::string_view origin, const http::request_header<>& head, const cors_origins& allowed, bool secure
) {
    if (origin.empty() || origin == "null") {
        return false;
    }
    const std::string_view scheme = secure ? "https://" : "http://";
    const std::string_view host = head[http::field::host];
    if (!host.empty() && origin.size() == scheme.size() + host.size() && origin.starts_with(scheme) &&
        boost::beast::iequals(origin.substr(scheme.size()), host)) {
        return true;
    }
    return allowed.allows(origin);
}

}  // namespace

// Request headers a preflight allows: bodies, both auth schemes, conditional GETs and sandboxes.
constexpr std::string_view cors_allow_headers =
    "Content-Type, Authorization, api_key, If-None-Match, X-Sandbox, Idempotency-Key, Last-Event-ID";

response preflight(std::string_view allow) {
    response r;
    r.status = http::status::no_content;
    r.with_header("Allow", allow)
        .with_header("Access-Control-Allow-Methods", allow)
        .with_header("Access-Control-Allow-Headers", cors_allow_headers)
        .with_header("Access-Control-Max-Age", "86400");
    return r;
}

void apply_cors(const cors_origins& allowed, const http::request_header<>& head, response& r) {
    if (allowed.empty()) {
        return;
    }
    r.vary_origin = true;
    const std::string_view origin = head[http::field::origin];
    if (!origin.empty() && allowed.allows(origin)) {
        r.cors_origin = std::string(origin);
    }
}

bool forwarded_https(const http::request_header<>& head) {
    const std::string_view proto = head["X-Forwarded-Proto"];
    if (!proto.empty()) {
        return boost::beast::iequals(core::trim_spaces(proto.substr(0, proto.find(','))), "https");
    }
    // Forwarded: for=…;proto=https, … — the first element is the client's side.
    std::string_view forwarded = head[http::field::forwarded];
    forwarded = forwarded.substr(0, forwarded.find(','));
    while (!forwarded.empty()) {
        const auto semicolon = forwarded.find(';');
        const std::string_view pair = core::trim_spaces(forwarded.substr(0, semicolon));
        if (pair.size() > 6 && boost::beast::iequals(pair.substr(0, 6), "proto=")) {
            std::string_view value = pair.substr(6);
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
                value = value.substr(1, value.size() - 2);
            }
            return boost::beast::iequals(value, "https");
        }
        if (semicolon == std::string_view::npos) {
            break;
        }
        forwarded.remove_prefix(semicolon + 1);
    }
    return false;
}

bool cookie_authenticated(const http::request_header<>& head) {
    if (head.find(http::field::authorization) != head.end()) {
        return false;
    }
    const auto access = request_cookie(head, access_cookie_name);
    const auto refresh = request_cookie(head, refresh_cookie_name);
    return (access && !access->empty()) || (refresh && !refresh->empty());
}

std::optional<response> refuse_cross_site(
    const http::request_header<>& head, const cors_origins& allowed, bool secure
) {
    const auto refused = [] {
        return std::optional<response>(http_error(http::status::forbidden, cross_site_refused));
    };
    if (const auto origin = head.find(http::field::origin); origin != head.end()) {
        return same_or_allowed(origin->value(), head, allowed, secure) ? std::nullopt : refused();
    }
    if (const std::string_view site = head["Sec-Fetch-Site"]; !site.empty()) {
        return site == "same-origin" || site == "none" ? std::nullopt : refused();
    }
    if (const std::string_view referer = head[http::field::referer]; !referer.empty()) {
        return same_or_allowed(origin_of_url(referer), head, allowed, secure) ? std::nullopt : refused();
    }
    return refused();
}

std::optional<response> refuse_websocket_origin(
    const http::request_header<>& head, const cors_origins& allowed, bool secure
) {
    const auto origin = head.find(http::field::origin);
    if (allowed.empty() || origin == head.end()) {
        return std::nullopt;
    }
    const std::string upgrade = core::ascii_lower(head[http::field::upgrade]);
    if (upgrade.find("websocket") == std::string::npos ||
        same_or_allowed(origin->value(), head, allowed, secure)) {
        return std::nullopt;
    }
    return http_error(
        http::status::forbidden, "WebSocket handshake from an origin --cors-origins does not allow"
    );
}

bool state_changing(http::verb method) {
    return method != http::verb::get && method != http::verb::head && method != http::verb::options;
}

}  // namespace storefront::server
