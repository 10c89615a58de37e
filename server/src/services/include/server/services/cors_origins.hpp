#pragma once
// The origins --cors-origins allows to call with credentials (cookies): each an exact origin
// ("https://shop.example") or one with a port wildcard ("http://localhost:*": any port of that scheme and
// host, and the host without a port). Routing asks it for every request with an Origin header; a WebSocket
// handshake can ask the same object.

#include <string>
#include <string_view>
#include <vector>

namespace storefront::server {

class cors_origins {
  public:
    cors_origins() = default;  // none: the default `Access-Control-Allow-Origin: *` without credentials

    // A comma-separated list (spaces around items ignored). Throws std::invalid_argument naming the first
    // item that is not scheme://host[:port] or scheme://host:* with scheme http or https, lower case,
    // without path, query or user info; "*" is refused too (never with credentials).
    [[nodiscard]] static cors_origins parse(std::string_view list);

    [[nodiscard]] bool empty() const { return patterns_.empty(); }
    // Whether `origin` (an Origin header's value, compared exactly as browsers serialise it) is allowed.
    [[nodiscard]] bool allows(std::string_view origin) const;

  private:
    struct pattern {
        std::string prefix;  // "http://localhost" for a wildcard; the whole origin otherwise
        bool any_port = false;
    };
    std::vector<pattern> patterns_;
};

}  // namespace storefront::server
