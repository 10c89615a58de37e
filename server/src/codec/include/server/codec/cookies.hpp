#pragma once
// Cookies both ways (RFC 6265 section 4): reading one value from a request's Cookie fields, strictly,
// and writing the Set-Cookie lines of the login cookies. A malformed pair is skipped, never fatal: a
// browser may hold cookies of other applications on the same host, and a bad one must not lock its
// owner out of ours.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>

namespace storefront::server {

namespace http = boost::beast::http;

// The names of the login cookies (Path=/, so /api/v1, /graphql and the sandbox paths all receive them).
inline constexpr std::string_view access_cookie_name = "storefront_access";
inline constexpr std::string_view refresh_cookie_name = "storefront_refresh";

// The value of the first well-formed cookie called `name` in one Cookie field value
// ("a=1; b=2"), or nullopt. A pair is well-formed when its name is an RFC 7230 token and its value is
// cookie-octets, optionally in double quotes (which are removed); anything else is skipped.
[[nodiscard]] std::optional<std::string_view> cookie_value(
    std::string_view cookie_field, std::string_view name
);

// The same across every Cookie field of `head` (HTTP/2 proxies may split them), first found wins.
[[nodiscard]] std::optional<std::string_view> request_cookie(
    const http::request_header<>& head, std::string_view name
);

// The access token a request presents to /api/v1 and /graphql: the Authorization header's bearer token
// when the header is sent at all (it always wins, even when empty or of another scheme), else the access
// cookie's value. Empty: none.
struct presented_token {
    std::string_view token;
    bool from_cookie = false;
};
[[nodiscard]] presented_token access_token_of(const http::request_header<>& head);

// How a login cookie is set.
struct cookie_options {
    std::chrono::seconds max_age{0};  // 0 deletes the cookie
    bool secure = false;              // the request came over TLS, or a trusted proxy says it did
};

// The value of a Set-Cookie field: `name=value; Path=/; Max-Age=N; HttpOnly; SameSite=Lax[; Secure]`.
// `value` must be cookie-octets (our tokens are base64url and dots).
[[nodiscard]] std::string set_cookie_value(
    std::string_view name, std::string_view value, const cookie_options& options
);

}  // namespace storefront::server
