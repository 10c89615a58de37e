#pragma once
// One parsed request as handlers see it: the Beast message, the normalised path and decoded query, and
// the caller the access rule established.

#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "core/query.hpp"
#include "core/write_policy.hpp"

namespace storefront::server {

namespace http = boost::beast::http;
using http_request = http::request<http::string_body>;

// Segments captured by "{name}" in a route pattern, still percent-encoded, in pattern order.
struct path_param {
    std::string_view name;
    std::string_view value;
};
using path_params = std::vector<path_param>;

class write_gate;

struct request_context {
    const http_request& request;
    // The origin-form target, valid by RFC 3986: the request's, with the raw bytes browsers send
    // (`|`, `[`, UTF-8, ...) percent-encoded when it had any. Links built from it (Link) keep its encoding.
    std::string_view target;
    std::string_view path;  // without query and without a trailing slash
    path_params params;
    core::query_params query;
    core::actor actor;  // who is calling, as the route's access rule established (anonymous by default)
    // Where a handler that learns from the body whether it writes asks before writing (write_gate.hpp).
    write_gate* writes = nullptr;
    // The client's address (the TCP peer, or the client a trusted proxy names); empty in-process.
    std::string_view client;
    // The request came over TLS or a trusted proxy says so: the login cookies are set Secure.
    bool secure = false;

    // The captured segment named `name`, or empty.
    [[nodiscard]] std::string_view param(std::string_view name) const {
        for (const auto& p : params) {
            if (p.name == name) {
                return p.value;
            }
        }
        return {};
    }
};

}  // namespace storefront::server
