#pragma once
// One row of a surface's route table: verb and path pattern, the handler, who may call it, what body it
// takes, and an operation name (for logs, metrics and the API documents). Routing reads only these rows.

#include <span>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/verb.hpp>

#include "server/codec/error_style.hpp"
#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

using handler_result = boost::asio::awaitable<response>;

// What a route table's row holds: a call of a surface's handler with that surface's services, which the
// router hands over as the table was mounted with (router.hpp). Rows are written with on<&handler>.
using handler_fn = handler_result (*)(request_context&, void* services);

namespace detail {
template <class Handler>
struct services_of;
template <class Services>
struct services_of<handler_result (*)(request_context&, Services&)> {
    using type = Services;
};
}  // namespace detail

// The row entry for `Handler`, a `handler_result (request_context&, S&)` of a surface whose table is
// mounted with an `S` (no allocation, no indirection beyond the function pointer).
template <auto Handler>
handler_result on(request_context& ctx, void* services) {
    using services_type = typename detail::services_of<decltype(Handler)>::type;
    return Handler(ctx, *static_cast<services_type*>(services));
}

// Checked by dispatch on the request head, before any body byte is read.
enum class access_rule {
    open,             // anyone
    bearer,           // a valid /api/v1 access token
    optional_bearer,  // /api/v1: anonymous, or the owner of a valid access token when one is sent
    catalogue_write,  // /api/v1 product, category and file writes: anyone under --write-policy open,
                      // an admin's token under roles (none: 401, another role: 403)
    account_write,    // /api/v1 user updates and deletes: anyone under open, a valid token under roles
                      // (whose account it may change is the handler's core::may_change_user call)
    pet_api_key,      // /api/v3: the api_key header
    pet_read,         // /api/v3: the api_key header or a bearer token with read:pets
    pet_write,        // /api/v3: a bearer token with write:pets
};

// What body a route reads, and so its size limit (limits_config).
enum class body_policy {
    none,          // no body expected; one sent is read up to the JSON/form limit and ignored
    json_or_form,  // application/json or application/x-www-form-urlencoded, up to form_body_limit
    binary,        // any media type, up to body_limit
    multipart,     // multipart/form-data uploads, up to upload_limit
};

// Whether the I/O thread may answer a byte-identical request again with this route's answer, without
// parsing or routing it (transport/replay_cache): only for GETs whose answer is a function of the request's
// bytes and of the shared view's data, so that the data revision tells when it is stale.
enum class answer_reuse {
    per_request,        // computed for every request
    until_data_changes  // the same bytes get the same answer while the shared data's revision stands
};

struct route {
    http::verb verb;
    std::string_view pattern;  // "/api/v1/products/{id}": a "{name}" segment captures one path segment
    handler_fn handler;
    access_rule access;
    body_policy body;
    std::string_view operation;  // "getProduct"
    answer_reuse reuse = answer_reuse::per_request;
};

// Whether the access log gets a line per request of a table's routes.
enum class request_logging {
    logged,
    unlogged,  // health probes: a line per load-balancer check would drown the requests that matter
};

// Every route of one surface, in one table.
struct route_table {
    std::string_view prefix;  // "/api/v1"
    error_style errors;
    std::span<const route> routes;
    request_logging logging = request_logging::logged;
};

// The short names a table's rows are written with, for `using namespace route_rows;` in a routes.cpp.
namespace route_rows {
using enum access_rule;
using enum body_policy;
using enum answer_reuse;
using http::verb;
}  // namespace route_rows

}  // namespace storefront::server
