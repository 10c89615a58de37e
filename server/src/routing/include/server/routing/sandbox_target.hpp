#pragma once
// Which sandbox a request names, from the path prefix `/sandbox/{id}` or the `X-Sandbox` header, and the
// path the routes then match (the prefix taken off). Pure: no I/O, no state.

#include <string_view>

#include "core/sandbox.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

struct sandbox_target {
    std::string_view id;         // empty: the shared view
    std::string_view path;       // what the route tables match
    bool whole_sandbox = false;  // the path is `/sandbox/{id}` itself (DELETE resets it)
};

// The sandbox of `path` and `header` (the X-Sandbox value; empty when absent) under `mode`, or the answer:
// 400 naming the id rule for a bad id, 400 when prefix and header name different sandboxes, and with
// sandboxes off 404 for the prefix and 400 for the header. `path` has no query and no trailing slash.
[[nodiscard]] or_response<sandbox_target> sandbox_of(
    std::string_view method,
    std::string_view path,
    std::string_view header,
    bool has_header,
    core::sandbox_mode mode
);

// The sandbox `head` names for the access log (the prefix's id, else X-Sandbox's), when it is a valid id;
// empty otherwise.
[[nodiscard]] std::string_view sandbox_named(const http::request_header<>& head);

}  // namespace storefront::server
