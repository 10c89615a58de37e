// The operational routes and their handler: /metrics, written from the process-wide registry.

#include "server/ops/routes.hpp"

#include <array>

#include "server/ops/metrics.hpp"

namespace storefront::server {

namespace {

// GET /metrics : every counter, gauge and histogram in the Prometheus text exposition format 0.0.4
handler_result handle_get_metrics(request_context&, ops_services& ops) {
    response r;
    r.body = metrics().exposition({
        .password_depth = ops.passwords.queued(),
        .password_rejections = ops.passwords.rejected(),
        .storage_depth = ops.storage.queued(),
        .storage_rejections = ops.storage.rejected() + (ops.writes ? ops.writes->rejected() : 0),
        .write_depth = ops.writes ? ops.writes->queued() : 0,
        .write_batches = ops.writes ? ops.writes->batches() : 0,
        .batched_writes = ops.writes ? ops.writes->writes() : 0,
    });
    r.content_type = "text/plain; version=0.0.4; charset=utf-8";
    r.with_header("Cache-Control", "no-store");
    r.deterministic = false;  // live counters: no ETag
    co_return r;
}

using namespace route_rows;

constexpr std::array routes{
    route{verb::get, "/metrics", &on<&handle_get_metrics>, open, none, "getMetrics", reads},
};

}  // namespace

const surface_table<ops_services>& ops_routes() {
    return table_of<ops_services, routes>("/", error_style::store);
}

}  // namespace storefront::server
