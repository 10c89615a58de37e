#pragma once
// What browsers' Origin means to routing: the CORS headers of every answer (--cors-origins) and the CSRF
// check of cookie-authenticated state changes (OWASP: verify Origin, else Sec-Fetch-Site, else Referer).

#include <optional>
#include <string_view>

#include <boost/beast/http/message.hpp>

#include "server/codec/response.hpp"
#include "server/services/cors_origins.hpp"

namespace storefront::server {

// Sets `r`'s CORS choice for a request with `head`: with --cors-origins set, the answer varies by Origin,
// and an allowed Origin is echoed with credentials; otherwise `*` stays, without credentials.
void apply_cors(const cors_origins& allowed, const http::request_header<>& head, response& r);

// The 204 answer to a CORS preflight (OPTIONS) of a path that allows the methods `allow`.
[[nodiscard]] response preflight(std::string_view allow);

// Whether a trusted proxy in front says the client used https: X-Forwarded-Proto's first value, or
// Forwarded's first proto=. Only meaningful when the peer is a trusted proxy.
[[nodiscard]] bool forwarded_https(const http::request_header<>& head);

// Whether `head` carries one of the login cookies and no Authorization header: then its credentials are
// ones a browser adds by itself, and a state change needs the CSRF check.
[[nodiscard]] bool cookie_authenticated(const http::request_header<>& head);

// The CSRF check of a state-changing request authenticated by a cookie: nullopt when it comes from this
// service's own origin (scheme `secure` ? https : http, and Host) or an allowed one; the 403 otherwise.
// Origin decides when sent; else Sec-Fetch-Site (same-origin passes, none too: the user's own action;
// same-site and cross-site do not, the exact origin being unknown); else Referer's origin; a request with
// none of the three is refused as well (OWASP's advice: browsers send Origin on every POST today, so only
// non-browser clients are refused, and they can send the Authorization header instead).
[[nodiscard]] std::optional<response> refuse_cross_site(
    const http::request_header<>& head, const cors_origins& allowed, bool secure
);

// The Origin check of a WebSocket handshake (Upgrade: websocket) when --cors-origins is set: browsers
// send the cookie with it and CORS does not guard WebSocket, so a page of another origin could otherwise
// read a user's stream. nullopt without the allow-list, without an Origin (not a browser) or for this
// service's own or an allowed origin; the 403 otherwise. Other requests: nullopt.
[[nodiscard]] std::optional<response> refuse_websocket_origin(
    const http::request_header<>& head, const cors_origins& allowed, bool secure
);

// Whether `method` changes state (anything but GET, HEAD and OPTIONS).
[[nodiscard]] bool state_changing(http::verb method);

}  // namespace storefront::server
