#pragma once
// What admission learned of a request from its head, and what the later stages (the handler's context,
// finishing, the inspector's record) read of it. Views point into the head.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/query.hpp"
#include "core/write_policy.hpp"
#include "server/codec/request_fields.hpp"
#include "server/routing/router.hpp"
#include "server/routing/sandbox_gateway.hpp"

namespace storefront::server {

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
    // The request's data set: the sandbox it runs in (kept alive until it is answered), or nullptr for
    // the shared view. Opened for reading at admission, for writing at its first write.
    std::shared_ptr<const sandbox_view> sandbox;
    std::string_view sandbox_id;  // into the head; empty: the shared view
    request_fields fields;        // into the head
    // The request came over TLS or a trusted proxy says so (the login cookies get Secure).
    bool secure = false;
    // A request to the sandbox's request inspector, which is not itself recorded.
    bool inspector = false;
};

}  // namespace storefront::server
