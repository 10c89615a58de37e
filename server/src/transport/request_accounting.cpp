// Metrics and the access log line of each answered request (request_accounting.hpp).

#include "request_accounting.hpp"

#include "server/ops/metrics.hpp"
#include "server/routing/sandbox_target.hpp"
#include "server/telemetry/log.hpp"

namespace storefront::server {

request_facts facts_of(const http_request& request) {
    const auto target = request.target();
    const auto method = request.method_string();
    return {
        .method = request.method(),
        .method_text = std::string_view(method.data(), method.size()),
        .target = std::string_view(target.data(), target.size()),
        .keep_alive = request.keep_alive(),
        .http10 = request.version() == 10,
        .body_bytes = request.body().size(),
        .head = &request.base(),
    };
}

void account_answered(const answered_request& answered, bool access_log) {
    const request_facts& request = answered.request;
    const auto status = static_cast<unsigned>(answered.reply.status);
    metrics().record_request(
        answered.matched,
        request.method,
        status,
        std::chrono::steady_clock::now() - answered.started,
        answered.bytes_in,
        answered.bytes_out
    );
    if (access_log && answered.logged) {
        log_request({
            .method = request.method_text,
            .path = request.target.substr(0, request.target.find('?')),
            .status = status,
            .duration = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::steady_clock::now() - answered.started
            ),
            .client = answered.client,
            .sandbox = request.head == nullptr ? std::string_view{} : sandbox_named(*request.head),
        });
    }
}

void account_refused(const response& reply, std::size_t bytes_out, std::string_view peer, bool access_log) {
    const auto status = static_cast<unsigned>(reply.status);
    metrics().record_request(nullptr, http::verb::unknown, status, {}, 0, bytes_out);
    if (access_log) {
        log_request({.method = "-", .path = "-", .status = status, .client = peer, .sandbox = {}});
    }
}

}  // namespace storefront::server
