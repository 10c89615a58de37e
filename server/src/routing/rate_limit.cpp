// The rate limit gate: exempt operational paths, a token per request from the client's bucket, the 429 in
// the surface's error shape, and the draft -07 RateLimit header fields.

#include "server/routing/rate_limit.hpp"

#include <array>

#include "server/codec/error_style.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

// The path of a target: no query, no trailing slash ("/healthz/?x" is "/healthz", as the router sees it).
std::string_view path_of(std::string_view target) noexcept {
    std::string_view path = target.substr(0, target.find('?'));
    if (path.size() > 1 && path.back() == '/') {
        path.remove_suffix(1);
    }
    return path;
}

}  // namespace

bool rate_limit_exempt(std::string_view target) noexcept {
    constexpr std::array<std::string_view, 3> exempt{"/healthz", "/readyz", "/metrics"};
    const std::string_view path = path_of(target);
    for (const auto e : exempt) {
        if (path == e) {
            return true;
        }
    }
    return false;
}

std::string rate_limit_header_lines(core::rate_limit limit, const core::bucket_verdict& verdict) {
    const std::uint32_t window = core::policy_window(limit);
    const std::string quota = std::to_string(static_cast<std::uint64_t>(limit.per_second) * window);
    std::string out;
    out.reserve(96);
    out.append("RateLimit-Policy: ")
        .append(quota)
        .append(";w=")
        .append(std::to_string(window))
        .append("\r\n");
    out.append("RateLimit: limit=")
        .append(quota)
        .append(", remaining=")
        .append(std::to_string(verdict.remaining))
        .append(", reset=")
        .append(std::to_string(verdict.reset))
        .append("\r\n");
    return out;
}

response too_many_requests(
    std::string_view target, core::rate_limit limit, const core::bucket_verdict& verdict
) {
    const std::string retry_after = std::to_string(std::max<std::uint32_t>(1, verdict.retry_after));
    const std::string message = "Too many requests: at most " + std::to_string(limit.per_second) +
                                " per second (burst " + std::to_string(limit.burst) + "); retry after " +
                                retry_after + " s";
    response r = styled_error(error_style_of_target(target), http::status::too_many_requests, message);
    r.with_header("Retry-After", retry_after);
    r.extra_headers += rate_limit_header_lines(limit, verdict);
    r.deterministic = false;
    return r;
}

rate_limit_verdict rate_limit_gate::admit(std::string_view target, std::string_view client) const {
    rate_limit_verdict v;
    if (rate_limit_exempt(target)) {
        return v;
    }
    v.limited = true;
    const core::bucket_verdict taken = limiter_.take(client);
    if (taken.allowed) {
        v.headers = rate_limit_header_lines(limiter_.limit(), taken);
    } else {
        v.refused = true;
        v.reply = too_many_requests(target, limiter_.limit(), taken);
    }
    return v;
}

}  // namespace storefront::server
