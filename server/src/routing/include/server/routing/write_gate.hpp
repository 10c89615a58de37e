#pragma once
// For a route whose body decides whether it writes (POST /graphql: a query or a mutation), dispatch admits
// it as a read and hands its handler this gate, asked once the handler knows what it will write.

#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "server/codec/response.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

class write_gate {
  public:
    // The services to write with for what the route row `writer` does (POST /api/v1/products for
    // addProduct: the same quota as that route): the services the handler was called with in the shared
    // view, a sandbox's own in a sandbox (given stores of its own at its first write, its row quota checked
    // for `writer.adds`); or the answer instead (403 when --sandboxes required keeps the shared view
    // read-only, 507, 503).
    [[nodiscard]] virtual boost::asio::awaitable<or_response<void*>> open_for_write(const route& writer) = 0;

  protected:
    ~write_gate() = default;
};

}  // namespace storefront::server
