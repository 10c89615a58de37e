#pragma once
// How a request enters its data set: the sandbox its head names (the /sandbox/{id} prefix or X-Sandbox),
// with sandboxes off the refusal of one named anyway, the sandbox's view for reading, and the one way to
// open it for writing (stores of its own at its first write, its row quota checked) that admission and the
// write gate of a route whose body decides (POST /graphql) both take.

#include <optional>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "routed_request.hpp"
#include "server/codec/response.hpp"
#include "server/routing/sandbox_target.hpp"
#include "server/routing/write_gate.hpp"

namespace storefront::server {

struct routing_services;

// The answer to a write on the shared view when --sandboxes required keeps it read-only (403).
[[nodiscard]] response shared_view_read_only();

// With sandboxes off: the answer to a request that names one anyway (404 for the prefix, 400 for the
// header), or nullopt.
[[nodiscard]] std::optional<response> refuse_sandbox(
    const http::request_header<>& head, const request_fields& fields, std::string_view path
);

// The sandbox `head` names and the path the routes match, or the answer: a bad id, or the request on
// `/sandbox/{id}` itself (DELETE resets the sandbox; OPTIONS is its preflight).
[[nodiscard]] boost::asio::awaitable<or_response<sandbox_target>> name_sandbox(
    const http::request_header<>& head,
    const request_fields& fields,
    std::string_view path,
    sandbox_gateway& sandboxes
);

// Opens `routed`'s sandbox (routed.sandbox_id, matched already) for reading or writing into
// routed.sandbox, the matched table's services replaced with the sandbox's; or the answer: 404 for a
// table sandboxes do not serve, 507/503 from the gateway.
[[nodiscard]] boost::asio::awaitable<std::optional<response>> enter_sandbox(
    const http::request_header<>& head, routed_request& routed, bool for_write, sandbox_gateway& sandboxes
);

// Opens `routed`'s sandbox for writing and checks its row quota for a write that adds `adds`: nullopt to
// go on, or the answer (507 over the quota, 503).
[[nodiscard]] boost::asio::awaitable<std::optional<response>> enter_sandbox_for_write(
    const http::request_header<>& head, routed_request& routed, row_kind adds, sandbox_gateway& sandboxes
);

// The write_gate of one request: the shared view's services as they are (unless --sandboxes required keeps
// the shared view read-only), or the request's sandbox opened for writing with its row quota checked.
class request_write_gate final : public write_gate {
  public:
    request_write_gate(
        routed_request& routed, const http::request_header<>& head, const routing_services& services
    )
        : routed_(routed), head_(head), services_(services) {}

    boost::asio::awaitable<or_response<void*>> open_for_write(const route& writer) override;

  private:
    routed_request& routed_;
    const http::request_header<>& head_;
    const routing_services& services_;
};

}  // namespace storefront::server
