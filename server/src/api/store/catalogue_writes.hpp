#pragma once
// The /api/v1 answers of the catalogue's writes (private to server_lib): POST, PUT and DELETE of products
// and categories run their aggregate's actions (catalogue_actions.hpp) the same way: the body read, the
// store call through catalogue_write, a refusal named and answered, the written row answered and published.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/errc.hpp"
#include "server/api/store/catalogue_actions.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/store_params.hpp"

namespace storefront::server::catalogue_writes {

// The answer to the store's refusal `ec` of a write of the `Actions` row `id` (0 for a create), named by
// `name` (ec -> refusal). A refusal that counts rows to name itself (in_use) is named where the store may
// block.
template <class Actions, class Name>
boost::asio::awaitable<response> refused(
    const request_context& ctx, store_services& app, std::int64_t id, boost::system::error_code ec, Name name
) {
    // An if, not a conditional expression: GCC 12 mishandles temporaries around co_await (bug 99576).
    refusal named;
    if (ec == core::errc::in_use) {
        named = co_await app.storage([&] { return name(ec); });
    } else {
        named = name(ec);
    }
    co_return store_params::refusal_answer(ctx, app, Actions::names.type, id, named);
}

// The body read by `rule` (a draft or a patch) and written (Actions::write) as a write of row `id` (0 for a
// create): the row, 201 and published as created for a create, 200 and published as updated for an update;
// or the answer to its refusal.
template <class Actions, class Rule>
handler_result body_written(request_context& ctx, store_services& app, std::int64_t id, Rule rule) {
    const auto fields = store_params::validated_body(ctx, rule);
    if (!fields) {
        co_return fields.error();
    }
    // The row's JSON is written where the write ran: on the write lane or storage pool for SQLite and
    // PostgreSQL, sparing the I/O thread, whose readers wait behind it, about a sixth of a create's cost.
    std::string json;
    const auto done = co_await app.catalogue_write([&] {
        auto written = Actions::write(app.catalogue(), id, *fields);
        if (written) {
            json = to_json(*written, app.public_url());
        }
        return written;
    });
    if (!done) {
        co_return co_await refused<Actions>(ctx, app, id, done.error(), [&](boost::system::error_code ec) {
            return Actions::refused(app.catalogue(), ec, id, *fields);
        });
    }
    co_await app.publish(written_event<Actions>(id), json);
    co_return json_response(id == 0 ? http::status::created : http::status::ok, std::move(json));
}

// POST {draft}: 201 the new row.
template <class Actions>
handler_result create_row(request_context& ctx, store_services& app) {
    return body_written<Actions>(ctx, app, 0, Actions::read_draft);
}

// PUT /{id} {any subset of the fields}: the updated row.
template <class Actions>
handler_result update_row(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    co_return co_await body_written<Actions>(ctx, app, *id, Actions::read_patch);
}

// DELETE /{id}: `true`.
template <class Actions>
handler_result delete_row(request_context& ctx, store_services& app) {
    const auto id = store_params::path_id(ctx);
    if (!id) {
        co_return id.error();
    }
    const auto done = co_await app.catalogue_write([&] { return Actions::remove(app.catalogue(), *id); });
    if (!done) {
        co_return co_await refused<Actions>(ctx, app, *id, done.error(), [&](boost::system::error_code ec) {
            return Actions::refused(app.catalogue(), ec, *id);
        });
    }
    co_await app.publish_deleted(Actions::names.deleted, *id);
    co_return store_params::deleted();
}

}  // namespace storefront::server::catalogue_writes
