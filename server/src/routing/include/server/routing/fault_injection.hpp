#pragma once
// Error states on demand (--fault-injection): the `_delay`, `_status` and `_fail_rate` parameters of a
// matched /api request, applied once per request before its handler, answered in its surface's error shape.

#include <optional>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "core/fault_injection.hpp"
#include "core/query.hpp"
#include "server/codec/response.hpp"
#include "server/routing/router.hpp"

namespace storefront::server {

// Whether a request for `path` (normalised, without the query) takes the fault parameters: any /api path
// (/api/v1, /api/v3, their openapi.json), not /docs, /metrics or the health probes.
[[nodiscard]] bool takes_fault_parameters(std::string_view path);

// What a valid plan answers instead of the handler, given a uniform `random` in [0, 1): `_status` gives
// that status in the surface's error shape (with Allow for 405, a challenge for 401, Retry-After for 429
// and 503); otherwise a `_fail_rate` hit (core::should_fail) gives 503 with Retry-After; otherwise nullopt
// (the handler answers).
[[nodiscard]] std::optional<response> injected_answer(
    const route_match& match, const core::fault_plan& plan, double random
);

// 400 in the surface's validation shape for bad fault parameter values.
[[nodiscard]] response fault_parameters_refused(
    const route_match& match, const core::validation_errors& errors
);

// The whole step for one request: bad values -> 400 at once; else the `_delay` awaited on a steady_timer of
// the coroutine's executor (no I/O thread is blocked), then injected_answer with a fresh random number.
// nullopt: run the handler.
[[nodiscard]] boost::asio::awaitable<std::optional<response>> apply_fault_parameters(
    const route_match& match, const core::query_params& query
);

}  // namespace storefront::server
