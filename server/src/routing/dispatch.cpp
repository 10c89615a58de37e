// Dispatch: the stages between the front door and the bytes of the answer, in order. Admission on the head
// (admission.cpp), the body read through the caller under the route's limit, the handler with its surface's
// services (fault parameters first when enabled), then finishing (request_finish.cpp). Admission and the
// handler run under one try: a failure anywhere in them becomes its answer in one place (failure_answer).

#include "server/routing/dispatch.hpp"

#include <chrono>
#include <exception>

#include <boost/asio/this_coro.hpp>

#include "admission.hpp"
#include "request_finish.hpp"
#include "sandbox_entry.hpp"
#include "server/routing/browser_origin.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/fault_injection.hpp"
#include "server/routing/finish_response.hpp"

namespace storefront::server {

namespace {

// With the body read: the fault parameters when enabled (their answer replaces the handler's, which then
// does not run), the handler, called with its surface's services, and its answer's ETag and coding.
boost::asio::awaitable<response> run_handler(
    routed_request& routed,
    const http_request& request,
    const routing_services& services,
    std::string_view client
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

// A request handed in whole (dispatch()): its body is there already, no client address, no proxy.
class complete_body final : public body_source {
  public:
    bool body_complete() const override { return true; }
    boost::asio::awaitable<bool> read_body(std::size_t /*limit*/) override { co_return true; }
    std::string_view client() const override { return {}; }
};

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
        } else if (request.body().size() > routed.body_limit) {
            // Only a request handed in whole gets here: a body read above stopped at the limit.
            out.reply = http_error(http::status::payload_too_large, "Request body too large");
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
    finish_answer(request, services, out.reply);
    const answered_request answered{request, routed, out.reply};
    if (handled && reusable(answered, services)) {
        out.reusable_at = revision;
    }
    record_for_inspector(co_await boost::asio::this_coro::executor, answered, started, services);
    co_return out;
}

boost::asio::awaitable<response> dispatch(const http_request& request, const routing_services& services) {
    complete_body body;
    request_outcome out = co_await handle_request(request, body, services);
    co_return std::move(out.reply);
}

}  // namespace storefront::server
