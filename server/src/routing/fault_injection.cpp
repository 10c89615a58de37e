// Fault injection on a matched /api request: the plan's 400, its delay on a timer, and the injected answer.
// Off unless --fault-injection; dispatch calls it once per request, after routing and before the handler.

#include "server/routing/fault_injection.hpp"

#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

bool petstore_shape(const route_match& match) {
    return match.table != nullptr && match.table->errors == error_style::petstore;
}

response error_in_shape(const route_match& match, http::status status, std::string_view message) {
    return petstore_shape(match) ? pet_error(status, message) : http_error(status, message);
}

// A uniform number in [0, 1) from this thread's generator: 53 random bits, so 1.0 never comes out and
// `_fail_rate=1` fails every request.
double uniform_random() {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

}  // namespace

bool takes_fault_parameters(std::string_view path) {
    return path == "/api" || path.starts_with("/api/");
}

std::optional<response> injected_answer(
    const route_match& match, const core::fault_plan& plan, double random
) {
    if (plan.status) {
        const auto status = static_cast<http::status>(*plan.status);
        response r = error_in_shape(match, status, "Injected by _status=" + std::to_string(*plan.status));
        // The headers RFC 9110 asks of these statuses, so clients exercise the paths they would really take.
        if (status == http::status::method_not_allowed && !match.allow.empty()) {
            r.with_header("Allow", match.allow);
        } else if (status == http::status::unauthorized) {
            r.with_header(
                "WWW-Authenticate",
                petstore_shape(match) ? R"(ApiKey realm="storefront-pet", header="api_key")" : "Bearer"
            );
        } else if (status == http::status::too_many_requests || status == http::status::service_unavailable) {
            r.with_header("Retry-After", "1");
        }
        return r;
    }
    if (plan.fail_rate && core::should_fail(*plan.fail_rate, random)) {
        return error_in_shape(match, http::status::service_unavailable, "Injected failure (_fail_rate)")
            .with_header("Retry-After", "1");
    }
    return std::nullopt;
}

response fault_parameters_refused(const route_match& match, const core::validation_errors& errors) {
    return petstore_shape(match) ? pet_validation_failed(errors) : validation_failed(errors);
}

boost::asio::awaitable<std::optional<response>> apply_fault_parameters(
    const route_match& match, const core::query_params& query
) {
    const auto plan = core::parse_fault_plan(query);
    if (!plan) {
        co_return fault_parameters_refused(match, plan.error());
    }
    if (plan->delay && plan->delay->count() > 0) {
        boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, *plan->delay);
        // Nothing cancels it; should the server stop first, the coroutine is destroyed with its io_context.
        (void)co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
    co_return injected_answer(match, *plan, uniform_random());
}

}  // namespace storefront::server
