#pragma once
// The steps every /api/v1 catalogue write takes (products and categories alike, private to server_lib):
// the store call through catalogue_write, a refusal named once (catalogue_refusals.hpp) and answered, the
// written row answered and published.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/errc.hpp"
#include "server/api/store/catalogue_refusals.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "store_params.hpp"

namespace storefront::server::catalogue_writes {

// The row a write names: its type as a missing id names it ("Product") and its id (0 for a create).
struct row_key {
    std::string_view type;
    std::int64_t id = 0;
};

// The answer to the store's refusal `ec` of a write of `row`, named by `name` (ec -> refusal). A refusal
// that counts rows to name itself (in_use) is named where the store may block.
template <class Name>
boost::asio::awaitable<response> refused(
    const request_context& ctx, store_services& app, row_key row, boost::system::error_code ec, Name name
) {
    // An if, not a conditional expression: GCC 12 mishandles temporaries around co_await (bug 99576).
    refusal named;
    if (ec == core::errc::in_use) {
        named = co_await app.storage([&] { return name(ec); });
    } else {
        named = name(ec);
    }
    co_return store_params::refusal_answer(ctx, app, row.type, row.id, named);
}

// `write` (a catalogue store call giving the written row) run as a catalogue write: the row with `status`,
// published as `event`, or the answer to its refusal.
template <class Write, class Name>
handler_result written(
    const request_context& ctx,
    store_services& app,
    row_key row,
    Write write,
    Name name,
    std::string_view event,
    http::status status
) {
    const auto done = co_await app.catalogue_write(std::move(write));
    if (!done) {
        co_return co_await refused(ctx, app, row, done.error(), name);
    }
    std::string json = to_json(*done, app.public_url());
    co_await app.publish(event, json);
    co_return json_response(status, std::move(json));
}

// `remove` (a catalogue store call deleting `row`) run as a catalogue write: `true`, published as
// `event`, or the answer to its refusal.
template <class Remove, class Name>
handler_result removed(
    const request_context& ctx,
    store_services& app,
    row_key row,
    Remove remove,
    Name name,
    std::string_view event
) {
    if (const auto done = co_await app.catalogue_write(std::move(remove)); !done) {
        co_return co_await refused(ctx, app, row, done.error(), name);
    }
    co_await app.publish_deleted(event, row.id);
    co_return store_params::deleted();
}

}  // namespace storefront::server::catalogue_writes
