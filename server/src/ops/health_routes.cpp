// /healthz and /readyz: liveness answers from the I/O thread alone; readiness adds the start-up and drain
// state and the shared, cached storage check (server/ops/readiness.hpp).

#include "server/ops/health_routes.hpp"

#include <array>
#include <string>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

response status_response(http::status status, std::string_view text) {
    std::string body;
    json_writer(body).begin_object().key("status").value(text).end_object();
    response r = json_response(status, std::move(body));
    r.with_header("Cache-Control", "no-store");
    r.deterministic = false;  // live state: no ETag
    if (status != http::status::ok) {
        r.with_header("Retry-After", "2");
    }
    return r;
}

// GET /healthz : 200 {"status":"ok"} while the process serves requests at all
handler_result handle_get_health(request_context&, ops_services&) {
    co_return status_response(http::status::ok, "ok");
}

// GET /readyz : 200 {"status":"ready"}, else 503 {"status":"starting"|"draining"|"storage unavailable"|…}
handler_result handle_get_readiness(request_context&, ops_services& ops) {
    if (!ops.state.started()) {
        co_return status_response(http::status::service_unavailable, "starting");
    }
    if (ops.state.draining()) {
        co_return status_response(http::status::service_unavailable, "draining");
    }
    const storage_health health = co_await ops.readiness.check(ops.catalogue, ops.storage);
    if (ops.state.draining()) {  // SIGTERM while the check ran
        co_return status_response(http::status::service_unavailable, "draining");
    }
    co_return status_response(
        health == storage_health::reachable ? http::status::ok : http::status::service_unavailable,
        describe(health)
    );
}

using namespace route_rows;

// clang-format off
constexpr std::array health_table{
    route{verb::get, "/healthz", &on<&handle_get_health>,    open, none, "getHealth",    reads},
    route{verb::get, "/readyz",  &on<&handle_get_readiness>, open, none, "getReadiness", reads},
};
// clang-format on

}  // namespace

const surface_table<ops_services>& health_routes() {
    return table_of<ops_services, health_table>("/", error_style::store, request_logging::unlogged);
}

}  // namespace storefront::server
