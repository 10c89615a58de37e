// Dispatch: target parsing, route match, preflight, access rule and body limit on the head; then the body
// and the handler, and the answer's finish (ETag, 304, compression). Admission and handler run under one
// try: a storage failure anywhere in them becomes its answer in one place (failure_answer).

#include "server/routing/dispatch.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "server/codec/error_style.hpp"
#include "server/codec/request_body.hpp"
#include "server/codec/request_fields.hpp"
#include "server/codec/request_target.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/fault_injection.hpp"
#include "server/routing/finish_response.hpp"
#include "server/routing/inspector_routes.hpp"
#include "server/routing/sandbox_target.hpp"
#include "server/routing/write_gate.hpp"
#include "server/telemetry/log.hpp"
#include "storage/storage_error.hpp"

namespace storefront::server {

namespace {

// A request whose head was admitted: its route and what the head told us. Views point into the head.
struct routed_request {
    // The target with the bytes browsers send raw (`|`, `[`, UTF-8, …) percent-encoded, when there were any;
    // on the heap so that `path` and the captured segments stay valid when this moves.
    std::unique_ptr<const std::string> escaped_target;
    route_match match;
    std::string_view target;  // the whole target as routed (escaped when needed)
    std::string_view path;    // without query and trailing slash
    core::query_params query;
    core::actor actor;
    std::size_t body_limit = 0;  // the route's body policy's limit
    // The sandbox the request runs in (kept alive until it is answered); nullptr: the shared view.
    std::shared_ptr<const sandbox_view> sandbox;
    std::string_view sandbox_id;  // into the head; empty: the shared view
    request_fields fields;        // into the head
    // The request came over TLS or a trusted proxy says so (the login cookies get Secure).
    bool secure = false;
    // A request to the sandbox's request inspector, which is not itself recorded.
    bool inspector = false;
};

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

// Room for the multipart boundaries and part headers around an upload of upload_limit bytes.
constexpr std::size_t multipart_overhead = 16 * 1024;

std::size_t limit_of(body_policy policy, const body_limits& limits) {
    switch (policy) {
        case body_policy::none:
        case body_policy::json_or_form:
            return limits.form_body_limit;
        case body_policy::binary:
            return limits.body_limit;
        case body_policy::multipart:
            return limits.upload_limit + multipart_overhead;
    }
    return limits.form_body_limit;
}

// The declared Content-Length (already checked to be plain digits by the framing policy), or 0.
std::size_t declared_length(const request_fields& fields) {
    const std::string_view value = fields.content_length;
    std::size_t n = 0;
    for (const char c : value) {
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

// The answer to a failure thrown while `routed` was admitted or handled: 503 with Retry-After, in the
// surface's error style, for a storage backend that is down or too busy to take a call (wherever it showed:
// a token's user lookup, opening a sandbox, its quota, the handler; the request changed nothing); a 500,
// logged, for anything else.
response failure_answer(std::exception_ptr failure, const routed_request& routed) {
    const route* matched = routed.match.matched;
    const std::string_view operation = matched != nullptr ? matched->operation : std::string_view("-");
    const bool petstore = routed.match.table && routed.match.table->errors == error_style::petstore;
    const auto trouble = [&](core::errc code, std::string_view why) {
        log_event("warning", "storage_unavailable", {field("operation", operation), field("what", why)});
        return petstore ? pet_error_response(code) : error_response(code);
    };
    try {
        std::rethrow_exception(std::move(failure));
    } catch (const storage::storage_unavailable& e) {
        return trouble(core::errc::storage_unavailable, e.what());
    } catch (const offload_rejected& e) {
        return trouble(core::errc::busy, e.what());
    } catch (const std::exception& e) {
        log_event(
            "error",
            "handler_exception",
            {field("operation", operation), field("path", routed.path), field("what", e.what())}
        );
    } catch (...) {
        log_event("error", "handler_exception", {field("operation", operation), field("path", routed.path)});
    }
    return internal_error();
}

constexpr std::string_view shared_view_read_only =
    "The shared data is read-only on this server: write in a sandbox of your own, with the base URL "
    "/sandbox/{id}/api/v1 (or /sandbox/{id}/api/v3) or the header X-Sandbox: {id}, where {id} is 4 to 64 "
    "letters, digits, '_' or '-' of your choosing (POST /api/v1/sandboxes makes a random one)";

// The X-Sandbox header of `head` as sandbox_of takes it.
or_response<sandbox_target> sandbox_of_head(
    const http::request_header<>& head,
    const request_fields& fields,
    std::string_view path,
    core::sandbox_mode mode
) {
    return sandbox_of(head.method_string(), path, fields.sandbox, fields.has_sandbox, mode);
}

// With sandboxes off: the answer to a request that names one anyway (404 for the prefix, 400 for the
// header), or nullopt.
std::optional<response> refuse_sandbox(
    const http::request_header<>& head, const request_fields& fields, std::string_view path
) {
    auto named = sandbox_of_head(head, fields, path, core::sandbox_mode::off);
    if (!named) {
        return std::move(named).error();
    }
    return std::nullopt;
}

// The sandbox `head` names and the path the routes match, or the answer: a bad id, or the request on
// `/sandbox/{id}` itself (DELETE resets the sandbox; OPTIONS is its preflight).
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

// The view of sandbox `id` for a request matched to `match` (whose services it replaces with the
// sandbox's), or the answer: 404 for a table sandboxes do not serve, 507/503 from the gateway.
boost::asio::awaitable<or_response<std::shared_ptr<const sandbox_view>>> enter_sandbox(
    const http::request_header<>& head,
    route_match& match,
    std::string_view id,
    bool for_write,
    sandbox_gateway& sandboxes
) {
    auto view = co_await sandboxes.open(id, for_write, match.table->errors);
    if (!view) {
        co_return view;
    }
    const auto services = (*view)->services_for(match.table);
    if (!services) {
        const std::string_view target = head.target();
        co_return route_not_found(head.method_string(), target.substr(0, target.find('?')));
    }
    match.services = *services;
    co_return view;
}

// The surfaces that read the login cookies as they read bearer tokens: /api/v1 and /graphql (the pet
// store keeps its own schemes).
bool takes_login_cookies(const route_table& table) {
    return table.prefix == "/api/v1" || table.prefix == "/graphql";
}

// On the head alone: `routed` filled in and nullopt, or the answer to send instead (400 malformed target,
// 404, 405 with Allow, the OPTIONS preflight, 401/403 from the access rule, 413 for a declared body over
// the route's limit).
boost::asio::awaitable<std::optional<response>> admit_request(
    const http::request_header<>& head, const routing_services& services, routed_request& routed
) {
    routed.fields = request_fields::of(head);
    // Beast has already refused control characters, spaces and NUL; what else a browser sends raw is
    // escaped here so the target is strict RFC 3986 as the client meant it. A bad '%' escape stays a 400.
    // An absolute-form target is read as its origin-form (RFC 9112 §3.2.2).
    std::string_view raw_target = origin_form_of(head.target());
    auto target = parse_request_target(raw_target);
    if (!target && std::any_of(raw_target.begin(), raw_target.end(), needs_uri_escape)) {
        routed.escaped_target = std::make_unique<const std::string>(escape_raw_uri_bytes(raw_target));
        raw_target = *routed.escaped_target;
        target = parse_request_target(raw_target);
    }
    const std::string_view method = head.method_string();
    if (!target) {
        co_return http_error(http::status::bad_request, "Malformed request target");
    }
    routed.target = raw_target;
    routed.path = target->path;
    if (routed.path.size() > 1 && routed.path.back() == '/') {
        routed.path.remove_suffix(1);  // "/api/v1/products/" is "/api/v1/products"
    }
    std::string_view sandbox_id;
    if (services.sandboxes != nullptr) {
        auto named = co_await name_sandbox(head, routed.fields, routed.path, *services.sandboxes);
        if (!named) {
            co_return std::move(named).error();
        }
        sandbox_id = named->id;
        routed.sandbox_id = named->id;
        routed.path = named->path;
        if (!sandbox_id.empty() && services.inspector != nullptr && inspector_path(routed.path)) {
            routed.inspector = true;
            const auto answer = [&] {
                return inspector_answer(
                    head,
                    routed.path,
                    target->query,
                    sandbox_id,
                    *services.inspector,
                    services.inspector_streams
                );
            };
            if (services.inspector->shared() && routed.path.starts_with("/requests")) {
                co_return co_await services.access.storage.run(answer);  // reads the database
            }
            co_return answer();
        }
    } else if (auto refused = refuse_sandbox(head, routed.fields, routed.path)) {
        co_return std::move(*refused);
    }
    routed.match = services.routes.match(head.method(), routed.path);
    switch (routed.match.outcome) {
        case route_match::kind::not_found:
            co_return route_not_found(method, routed.path);
        case route_match::kind::method_not_allowed:
            if (head.method() == http::verb::options) {
                co_return preflight(routed.match.allow);
            }
            co_return wrong_method(
                routed.match.compat, method, target->path, routed.path, routed.match.allow
            );
        case route_match::kind::found:
            break;
    }
    const route& r = *routed.match.matched;
    const bool writes = r.change == data_change::writes;
    const access_services* access = &services.access;
    if (!sandbox_id.empty()) {
        auto view = co_await enter_sandbox(head, routed.match, sandbox_id, false, *services.sandboxes);
        if (!view) {
            co_return std::move(view).error();
        }
        routed.sandbox = std::move(*view);
        access = &routed.sandbox->access();
    } else if (writes && services.sandboxes != nullptr &&
               services.sandboxes->mode() == core::sandbox_mode::required && routed.match.table != nullptr &&
               routed.match.table->prefix.starts_with("/api")) {
        co_return http_error(http::status::forbidden, shared_view_read_only);
    }
    auto caller = co_await check_access(r.access, head, *access);
    if (!caller) {
        co_return std::move(caller).error();
    }
    routed.actor = std::move(*caller);
    if (state_changing(head.method()) && routed.match.table != nullptr &&
        takes_login_cookies(*routed.match.table) && cookie_authenticated(head)) {
        if (auto refused = refuse_cross_site(head, services.cors, routed.secure)) {
            co_return std::move(*refused);
        }
    }
    if (auto refused = refuse_websocket_origin(head, services.cors, routed.secure)) {
        co_return std::move(*refused);
    }
    if (writes && routed.sandbox) {
        // A sandbox gets stores of its own at its first write (only once the caller was admitted).
        auto own = co_await enter_sandbox(head, routed.match, sandbox_id, true, *services.sandboxes);
        if (!own) {
            co_return std::move(own).error();
        }
        routed.sandbox = std::move(*own);
        if (auto full = co_await services.sandboxes->admit_write(
                *routed.sandbox, r.adds, routed.match.table->errors
            )) {
            co_return std::move(*full);
        }
    }
    routed.body_limit = limit_of(r.body, services.limits);
    if (declared_length(routed.fields) > routed.body_limit) {
        co_return http_error(http::status::payload_too_large, "Request body too large");
    }
    append_query_params(*target, routed.query);
    co_return std::nullopt;
}

// The write_gate of one request: the shared view's services as they are (unless --sandboxes required keeps
// the shared view read-only), or the request's sandbox opened for writing with its row quota checked.
class request_write_gate final : public write_gate {
  public:
    request_write_gate(
        routed_request& routed, const http::request_header<>& head, const routing_services& services
    )
        : routed_(routed), head_(head), services_(services) {}

    boost::asio::awaitable<or_response<void*>> open_for_write(const route& writer) override {
        sandbox_gateway* sandboxes = services_.sandboxes;
        if (routed_.sandbox_id.empty()) {
            if (sandboxes != nullptr && sandboxes->mode() == core::sandbox_mode::required) {
                co_return http_error(http::status::forbidden, shared_view_read_only);
            }
            co_return routed_.match.services;
        }
        auto own = co_await enter_sandbox(head_, routed_.match, routed_.sandbox_id, true, *sandboxes);
        if (!own) {
            co_return std::move(own).error();
        }
        routed_.sandbox = std::move(*own);
        if (auto full =
                co_await sandboxes->admit_write(*routed_.sandbox, writer.adds, routed_.match.table->errors)) {
            co_return std::move(*full);
        }
        co_return routed_.match.services;
    }

  private:
    routed_request& routed_;
    const http::request_header<>& head_;
    const routing_services& services_;
};

// With the body read: the fault parameters when enabled (their answer replaces the handler's, which then
// does not run), the handler, called with its surface's services, and its answer's ETag and coding.
boost::asio::awaitable<response> run_handler(
    routed_request& routed,
    const http_request& request,
    const routing_services& services,
    std::string_view client = {}
) {
    if (services.fault_injection && takes_fault_parameters(routed.path)) {
        if (auto injected = co_await apply_fault_parameters(routed.match, routed.query)) {
            co_return std::move(*injected);
        }
    }
    request_write_gate gate(routed, request.base(), services);
    request_context ctx{
        request,
        routed.target,
        routed.path,
        std::move(routed.match.params),
        std::move(routed.query),
        std::move(routed.actor),
        &gate,
        client,
        routed.secure};
    response reply = co_await routed.match.matched->handler(ctx, routed.match.services);
    finish_response(request.method(), routed.fields, reply);
    co_return reply;
}

// Whether `reply` to `request`, routed as `routed`, answers every byte-identical request until the shared
// data changes (request_outcome::reusable_at).
bool reusable(
    const http_request& request,
    const routed_request& routed,
    const response& reply,
    const routing_services& services
) {
    const auto status = reply.status;
    return request.method() == http::verb::get &&
           routed.match.matched->reuse == answer_reuse::until_data_changes && routed.sandbox_id.empty() &&
           !routed.sandbox && !services.fault_injection && reply.deterministic && !reply.close_connection &&
           (status == http::status::ok || status == http::status::not_modified);
}

// A sandbox request's record into the database the instances share (request_logs::share_through). A record
// that finds the storage pool full or the database down is dropped: the answer has gone out already.
boost::asio::awaitable<void> store_shared_record(
    request_logs& logs,
    blocking_offload& storage,
    std::string sandbox,
    std::shared_ptr<const request_record> record
) {
    try {
        (void)co_await storage.try_run([&] {
            logs.add(sandbox, *record);
            return true;
        });
    } catch (const std::exception& e) {
        log_event("warning", "inspector_record_lost", {field("what", e.what())});
    }
}

}  // namespace

boost::asio::awaitable<request_outcome> handle_request(
    const http_request& request, body_source& body, const routing_services& services
) {
    request_outcome out;
    const auto started = std::chrono::steady_clock::now();  // a sandbox request's durationMs
    // Read first: a write racing this request moves the revision on, so its answer is never kept stale.
    const std::uint64_t revision =
        services.shared_data != nullptr ? services.shared_data->current() : std::uint64_t{0};
    routed_request routed;
    routed.secure = body.from_trusted_proxy() && forwarded_https(request.base());
    bool handled = false;
    std::exception_ptr failure;
    try {
        if (auto answer = co_await admit_request(request.base(), services, routed)) {
            out.reply = std::move(*answer);  // answered from the head: 404, 405, 401, 413, …
        } else if (!body.body_complete() && !co_await body.read_body(routed.body_limit)) {
            out.outcome = request_outcome::kind::abandoned;
            co_return out;
        } else {
            const route_table* table = routed.match.table;
            out.matched = routed.match.matched;
            out.logged = services.log_probes || table == nullptr || table->logging == request_logging::logged;
            out.reply = co_await run_handler(routed, request, services, body.client());
            handled = true;
        }
    } catch (...) {
        failure = std::current_exception();
    }
    if (failure) {
        out.reply = failure_answer(std::move(failure), routed);
        handled = false;
    }
    // A body not read cannot be skipped safely, so then the connection ends after the answer.
    if (!body.body_complete()) {
        out.outcome = request_outcome::kind::answered_unread;
    }
    restyle_error(out.reply, error_style_of_target(request.target()));
    apply_cors(services.cors, request.base(), out.reply);
    if (handled && services.shared_data != nullptr && reusable(request, routed, out.reply, services)) {
        out.reusable_at = revision;
    }
    if (services.inspector != nullptr && !routed.sandbox_id.empty() && !routed.inspector) {
        auto record = std::make_shared<const request_record>(inspector_record(request, out.reply, started));
        if (services.inspector->shared()) {
            // Stored on the storage pool while the answer goes out.
            std::string sandbox(routed.sandbox_id);
            boost::asio::co_spawn(
                co_await boost::asio::this_coro::executor,
                store_shared_record(*services.inspector, services.access.storage, sandbox, record),
                boost::asio::detached
            );
        } else {
            services.inspector->add(routed.sandbox_id, *record);
        }
    }
    co_return out;
}

boost::asio::awaitable<response> dispatch(const http_request& request, const routing_services& services) {
    routed_request routed;
    response reply;
    std::exception_ptr failure;
    try {
        if (auto answer = co_await admit_request(request.base(), services, routed)) {
            reply = std::move(*answer);
        } else if (request.body().size() > routed.body_limit) {
            reply = http_error(http::status::payload_too_large, "Request body too large");
        } else {
            reply = co_await run_handler(routed, request, services);
        }
    } catch (...) {
        failure = std::current_exception();
    }
    if (failure) {
        reply = failure_answer(std::move(failure), routed);
    }
    restyle_error(reply, error_style_of_target(request.target()));
    apply_cors(services.cors, request.base(), reply);
    co_return reply;
}

}  // namespace storefront::server
