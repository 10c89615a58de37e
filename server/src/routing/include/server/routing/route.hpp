#pragma once
// One row of a surface's route table: verb and path pattern, the handler, who may call it, what body it
// takes, an operation name (for logs, metrics and the API documents) and the route's policy as data: whether
// it changes the data set, which kind of row it adds (sandbox quotas), whether its answer may be reused, and
// the GraphQL mutation that performs the same operation. Routing, sandboxes and GraphQL read only these rows:
// no other code lists operation names.

#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/verb.hpp>

#include "server/caches/replay_scope.hpp"
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
// parsing or routing it (caches/scoped_replay_cache.hpp): only for GETs whose answer is a function of the
// request's bytes and of the shared view's data, so that the data revision tells when it is stale. Such a
// row also states which rows its answer reads, so that a write to other rows keeps it
// (caches/replay_scope.hpp).
struct answer_reuse {
    bool until_data_changes = false;  // false: computed for every request
    rows_read reads;
};

// What a route does to the data of the request's data set (the shared view, or a sandbox). Sessions
// (login, refresh, logout), e-mail checks and the sandbox registry are not the data set's data.
enum class data_change {
    reads,    // changes none of it: reads, or only checks credentials
    writes,   // changes data: a sandbox gets stores of its own (quota checked), and --sandboxes required
              // refuses it in the shared view
    by_body,  // decided by its body (POST /graphql: a query or a mutation); the handler asks its write_gate
};

// The kind of row a route adds, each counted against a sandbox's --sandbox-rows quota by its store;
// `none` (last, so the counted kinds index arrays from 0) for a route that adds no counted row.
// `order` is a pet store order; `cart`, `shop_order` and `payment` the shop's (issue 42).
enum class row_kind : unsigned char {
    product,
    category,
    user,
    pet,
    order,
    pet_user,
    cart,
    shop_order,
    payment,
    none
};

struct route {
    // Every row states its data_change: a route added without one does not compile, so no write is taken
    // for a read by mistake.
    constexpr route(
        http::verb verb_,
        std::string_view pattern_,
        handler_fn handler_,
        access_rule access_,
        body_policy body_,
        std::string_view operation_,
        data_change change_,
        answer_reuse reuse_ = answer_reuse{},
        row_kind adds_ = row_kind::none,
        std::string_view graphql_mutation_ = {}
    )
        : verb(verb_),
          pattern(pattern_),
          handler(handler_),
          access(access_),
          body(body_),
          operation(operation_),
          change(change_),
          reuse(reuse_),
          adds(adds_),
          graphql_mutation(graphql_mutation_) {}

    http::verb verb;
    std::string_view pattern;  // "/api/v1/products/{id}": a "{name}" segment captures one path segment
    handler_fn handler;
    access_rule access;
    body_policy body;
    std::string_view operation;  // "getProduct"
    data_change change;
    answer_reuse reuse;
    row_kind adds;                      // what the route adds, for the sandbox row quota
    std::string_view graphql_mutation;  // "addProduct": the mutation field with this route's rules and quota
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
inline constexpr answer_reuse per_request{};
// Reused until a row of `tables` changes; with `one_row_of`, a pattern ending in "/{id}" that reads only that
// row of that table (and any row of the others: a product embeds its category).
constexpr answer_reuse until_changed(
    std::initializer_list<core::row_table> tables, std::optional<core::row_table> one_row_of = std::nullopt
) {
    answer_reuse reuse{.until_data_changes = true, .reads = {.tables = 0, .one_row_of = one_row_of}};
    for (const auto table : tables) {
        reuse.reads.tables |= table_bit(table);
    }
    return reuse;
}
using enum data_change;
using http::verb;
}  // namespace route_rows

}  // namespace storefront::server
