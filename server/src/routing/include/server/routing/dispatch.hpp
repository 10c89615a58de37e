#pragma once
// Request dispatch, one call per request: on the head (target, route, OPTIONS, access rule, body limit),
// then the body through the caller's body_source under the route's limit, then the handler inside the one
// try/catch that turns an escaped exception into a logged 500. 404, 405, 401 and 413 cost no body read.

#include <cstddef>
#include <cstdint>
#include <optional>

#include <boost/asio/awaitable.hpp>

#include "server/caches/data_revision.hpp"
#include "server/codec/response.hpp"
#include "server/routing/access.hpp"
#include "server/routing/request_context.hpp"
#include "server/routing/router.hpp"
#include "server/routing/sandbox_gateway.hpp"
#include "server/services/cors_origins.hpp"
#include "server/services/request_recorder.hpp"

namespace storefront::server {

// The body limit of each body policy (limits_config's values).
struct body_limits {
    std::size_t form_body_limit = 0;  // none, json_or_form
    std::size_t body_limit = 0;       // binary
    std::size_t upload_limit = 0;     // multipart (plus room for the part headers)
};

// What dispatch works with: the route tables, the body limits, the access rules' credentials, whether
// the unlogged tables (health probes) get access log lines all the same, and whether /api requests may
// carry the fault parameters (routing/fault_injection.hpp).
struct routing_services {
    const router& routes;
    body_limits limits;
    access_services access;
    bool log_probes = false;
    bool fault_injection = false;
    // The sandboxes (--sandboxes on or required); nullptr: off (the prefix and header are refused).
    sandbox_gateway* sandboxes = nullptr;
    // The shared view's data revision, which tells when a reusable answer is stale; nullptr: no answer
    // is reusable.
    const data_revision* shared_data = nullptr;
    // --cors-origins: the origins whose answers carry credentials, and which pass the CSRF check.
    cors_origins cors;
    // The request inspector's log of each sandbox (issue 43): every request a sandbox answers is recorded
    // there and /sandbox/{id}/requests serves it; nullptr: no inspector. `inspector_streams` bounds the
    // open streams (with the change feed's, --events-max-connections).
    request_logs* inspector = nullptr;
    std::size_t inspector_streams = 10'000;
};

// Reads the current request's body into the request handle_request was given, under `limit` bytes.
// False when it could not: the source has answered or closed the connection, nothing more is sent.
class body_source {
  public:
    [[nodiscard]] virtual bool body_complete() const = 0;
    [[nodiscard]] virtual boost::asio::awaitable<bool> read_body(std::size_t limit) = 0;
    // The client's address, as the access log names it (login brake).
    [[nodiscard]] virtual std::string_view client() const = 0;
    // Whether the peer is a trusted proxy (--trusted-proxies), whose X-Forwarded-Proto is believed.
    [[nodiscard]] virtual bool from_trusted_proxy() const { return false; }

  protected:
    ~body_source() = default;
};

// What became of one request.
struct request_outcome {
    enum class kind {
        answered,         // `reply` is the answer
        answered_unread,  // `reply` answers the head alone while a body is still unread: send it, then close
        abandoned,        // the body could not be read; the source has dealt with it, nothing to send
    } outcome = kind::answered;
    response reply;
    const route* matched = nullptr;  // for the metrics' route label (nullptr: no route)
    bool logged = true;              // whether the access log gets a line
    // Set when `reply` answers every byte-identical request while the shared data's revision is this one:
    // a GET of a route marked answer_reuse until_data_changes on the shared view, with fault injection
    // off, answered 200 or 304 (the revision was read before the request was routed:
    // caches/data_revision.hpp).
    std::optional<std::uint64_t> reusable_at;
};

// Routes `request` on its head, has `body` read it under the route's limit, and runs the handler. For
// HEAD the reply still carries the GET body; the caller sends only its length.
[[nodiscard]] boost::asio::awaitable<request_outcome> handle_request(
    const http_request& request, body_source& body, const routing_services& services
);

// The same for a complete request, body included (in-process tests and the fuzz harnesses).
[[nodiscard]] boost::asio::awaitable<response> dispatch(
    const http_request& request, const routing_services& services
);

}  // namespace storefront::server
