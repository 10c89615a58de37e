#pragma once
// What dispatch asks of the sandboxes (issue 20): the view of one sandbox a request runs in, and the two
// requests that act on a sandbox as a whole. The composition root's sandbox_worlds implements it; routing
// only knows this interface (the stores and services behind a view are not its business).

#include <memory>
#include <optional>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "core/sandbox.hpp"
#include "server/codec/response.hpp"
#include "server/routing/access.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

// One sandbox as a request sees it: the services each surface's handlers get there and the access rules'
// credentials (its own users and token secrets).
class sandbox_view {
  public:
    virtual ~sandbox_view() = default;
    // The services `table`'s handlers are called with inside the sandbox (may be nullptr for a table whose
    // handlers take none); nullopt when the table is not served inside sandboxes (ops, health).
    [[nodiscard]] virtual std::optional<void*> services_for(const route_table* table) const = 0;
    [[nodiscard]] virtual const access_services& access() const = 0;
};

class sandbox_gateway {
  public:
    virtual ~sandbox_gateway() = default;

    [[nodiscard]] virtual core::sandbox_mode mode() const = 0;

    // The view of sandbox `id` (a valid id). `for_write`: the request may change data, so the sandbox gets
    // stores of its own first if it has none yet (a sandbox that never wrote reads the seed). The answer
    // instead of a view, in the `errors` shape of the request's surface: 507 when --sandbox-max sandboxes
    // hold data already, 503 when storage is down.
    [[nodiscard]] virtual boost::asio::awaitable<or_response<std::shared_ptr<const sandbox_view>>> open(
        std::string_view id, bool for_write, error_style errors
    ) = 0;

    // Before a write that adds a row of kind `adds` (a route row's `adds`) runs in `view` (opened for
    // writing): 507 when the sandbox has added --sandbox-rows of that kind already (in the `errors` shape);
    // nullopt to go on (always for row_kind::none).
    [[nodiscard]] virtual boost::asio::awaitable<std::optional<response>> admit_write(
        const sandbox_view& view, row_kind adds, error_style errors
    ) = 0;

    // DELETE /sandbox/{id}: 204 once its changes are gone (the next request reads the seed again).
    [[nodiscard]] virtual boost::asio::awaitable<response> reset(std::string_view id) = 0;

    // POST /api/v1/sandboxes: 201 {"id","apiBase","petBase","expiresAt"} with a fresh random id.
    [[nodiscard]] virtual boost::asio::awaitable<response> create() = 0;
};

}  // namespace storefront::server
