// sandbox_of: the prefix and header rules of issue 20.

#include "server/routing/sandbox_target.hpp"

#include <algorithm>

#include "server/codec/request_fields.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

constexpr std::string_view prefix = "/sandbox/";

response bad_id() {
    return http_error(http::status::bad_request, core::sandbox_id_rule);
}

}  // namespace

or_response<sandbox_target> sandbox_of(
    std::string_view method,
    std::string_view path,
    std::string_view header,
    bool has_header,
    core::sandbox_mode mode
) {
    sandbox_target out{.id = {}, .path = path};
    const bool prefixed = path.starts_with(prefix) || path == "/sandbox";
    if (mode == core::sandbox_mode::off) {
        if (prefixed) {
            return route_not_found(method, path);
        }
        if (has_header) {
            return http_error(http::status::bad_request, "Sandboxes are off on this server (X-Sandbox)");
        }
        return out;
    }
    if (prefixed) {
        const std::string_view rest = path.size() > prefix.size() ? path.substr(prefix.size()) : "";
        const auto slash = rest.find('/');
        out.id = rest.substr(0, slash);
        out.path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
        out.whole_sandbox = slash == std::string_view::npos;
        if (!core::valid_sandbox_id(out.id)) {
            return bad_id();
        }
    }
    if (has_header) {
        if (!core::valid_sandbox_id(header)) {
            return bad_id();
        }
        if (prefixed && header != out.id) {
            return http_error(
                http::status::bad_request,
                "The X-Sandbox header and the /sandbox/{id} prefix name different sandboxes"
            );
        }
        out.id = header;
    }
    return out;
}

std::string_view sandbox_named(const http::request_header<>& head) {
    const std::string_view target = head.target();
    const std::string_view path = target.substr(0, target.find('?'));
    const request_fields fields = request_fields::of(head);
    const auto named =
        sandbox_of(head.method_string(), path, fields.sandbox, fields.has_sandbox, core::sandbox_mode::on);
    return named ? named->id : std::string_view{};
}

}  // namespace storefront::server
