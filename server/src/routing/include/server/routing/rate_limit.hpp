#pragma once
// The rate limit as the request path meets it, once per request on the head (before any body byte is
// read), with the client already known: exempt paths, the 429 in the surface's error shape, and the header
// fields of draft-ietf-httpapi-ratelimit-headers-07 (the RateLimit-Policy and RateLimit fields; later
// drafts renamed their parameters, so storefront keeps to -07 throughout):
//   RateLimit-Policy: <quota>;w=<window>     e.g. 5;w=1 for --rate-limit 5/s --rate-burst 5
//   RateLimit: limit=<quota>, remaining=<whole tokens left>, reset=<seconds until the bucket is full>
// and Retry-After (whole seconds until one token is back, >= 1) on a 429.

#include <string>
#include <string_view>

#include "core/token_bucket.hpp"
#include "server/codec/response.hpp"
#include "server/services/rate_limiter.hpp"

namespace storefront::server {

// What the gate decided for one request.
struct rate_limit_verdict {
    bool limited = false;  // the path is rate limited (false: exempt, nothing to add)
    bool refused = false;  // over the limit: `reply` is the 429 to send instead
    response reply;        // set when refused
    std::string headers;   // when limited and served: "RateLimit-Policy: …\r\nRateLimit: …\r\n" to add
};

class rate_limit_gate {
  public:
    explicit rate_limit_gate(rate_limiter& limiter) : limiter_(limiter) {}

    // One request for `target` (the request target as received) from `client` (its bucket's key).
    // /healthz, /readyz and /metrics are exempt and take no token. Thread-safe.
    [[nodiscard]] rate_limit_verdict admit(std::string_view target, std::string_view client) const;

  private:
    rate_limiter& limiter_;
};

// Whether `target`'s path is one of the operational routes the rate limit never applies to.
[[nodiscard]] bool rate_limit_exempt(std::string_view target) noexcept;

// The RateLimit-Policy and RateLimit header lines for `limit` and one request's verdict.
[[nodiscard]] std::string rate_limit_header_lines(
    core::rate_limit limit, const core::bucket_verdict& verdict
);

// 429 for `target`: {"code":429,"message":…} under /api/v3, else {"message":…,"error":"Too Many
// Requests","statusCode":429}; with Retry-After and the RateLimit header fields.
[[nodiscard]] response too_many_requests(
    std::string_view target, core::rate_limit limit, const core::bucket_verdict& verdict
);

}  // namespace storefront::server
