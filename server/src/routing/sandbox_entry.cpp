// How a request enters its data set: the sandbox it names, by the rules of issue 20 (sandbox_of, pure:
// sandbox_target.hpp), and its view opened for reading or writing (sandbox_entry.hpp).

#include "sandbox_entry.hpp"

#include "server/codec/request_fields.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/dispatch.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

constexpr std::string_view prefix = "/sandbox/";

response bad_id() {
    return http_error(http::status::bad_request, core::sandbox_id_rule);
}

// The X-Sandbox header of `head` as sandbox_of takes it.
or_response<sandbox_target> sandbox_of_head(
    const http::request_header<>& head,
    const request_fields& fields,
    std::string_view path,
    core::sandbox_mode mode
) {
    return sandbox_of(head.method_string(), path, fields.sandbox, fields.has_sandbox, mode);
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

response shared_view_read_only() {
    return http_error(
        http::status::forbidden,
        "The shared data is read-only on this server: write in a sandbox of your own, with the base URL "
        "/sandbox/{id}/api/v1 (or /sandbox/{id}/api/v3) or the header X-Sandbox: {id}, where {id} is 4 to 64 "
        "letters, digits, '_' or '-' of your choosing (POST /api/v1/sandboxes makes a random one)"
    );
}

std::optional<response> refuse_sandbox(
    const http::request_header<>& head, const request_fields& fields, std::string_view path
) {
    auto named = sandbox_of_head(head, fields, path, core::sandbox_mode::off);
    if (!named) {
        return std::move(named).error();
    }
    return std::nullopt;
}

boost::asio::awaitable<or_response<sandbox_target>> name_sandbox(
    const http::request_header<>& head,
    const request_fields& fields,
    std::string_view path,
    sandbox_gateway& sandboxes
) {
    auto named = sandbox_of_head(head, fields, path, sandboxes.mode());
    if (!named || !named->whole_sandbox) {
        co_return named;
    }
    constexpr std::string_view allow = "DELETE, OPTIONS";
    switch (head.method()) {
        case http::verb::delete_:
            co_return co_await sandboxes.reset(named->id);
        case http::verb::options:
            co_return preflight(allow);
        default:
            co_return method_not_allowed(head.method_string(), path, allow);
    }
}

boost::asio::awaitable<std::optional<response>> enter_sandbox(
    const http::request_header<>& head, routed_request& routed, bool for_write, sandbox_gateway& sandboxes
) {
    route_match& match = routed.match;
    auto view = co_await sandboxes.open(routed.sandbox_id, for_write, match.table->errors);
    if (!view) {
        co_return std::move(view).error();
    }
    const auto services = (*view)->services_for(match.table);
    if (!services) {
        const std::string_view target = head.target();
        co_return route_not_found(head.method_string(), target.substr(0, target.find('?')));
    }
    match.services = *services;
    routed.sandbox = std::move(*view);
    co_return std::nullopt;
}

boost::asio::awaitable<std::optional<response>> enter_sandbox_for_write(
    const http::request_header<>& head, routed_request& routed, row_kind adds, sandbox_gateway& sandboxes
) {
    if (auto refused = co_await enter_sandbox(head, routed, true, sandboxes)) {
        co_return refused;
    }
    co_return co_await sandboxes.admit_write(*routed.sandbox, adds, routed.match.table->errors);
}

boost::asio::awaitable<or_response<void*>> request_write_gate::open_for_write(const route& writer) {
    sandbox_gateway* sandboxes = services_.sandboxes;
    if (routed_.sandbox_id.empty()) {
        if (sandboxes != nullptr && sandboxes->mode() == core::sandbox_mode::required) {
            co_return shared_view_read_only();
        }
        co_return routed_.match.services;
    }
    if (auto refused = co_await enter_sandbox_for_write(head_, routed_, writer.adds, *sandboxes)) {
        co_return std::move(*refused);
    }
    co_return routed_.match.services;
}

}  // namespace storefront::server
