// libFuzzer harness: bytes as the JSON (and form) body of the /api/v1 write endpoints, through body
// decoding, validation and the handlers (login, registration and user updates only as far as decoding and
// their rules: Argon2id is too slow to fuzz).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "core/catalogue_rules.hpp"
#include "server/codec/request_body.hpp"
#include "server/composition_root.hpp"
#include "server/ops/config_parser.hpp"
#include "server/routing/dispatch.hpp"

namespace {

using namespace storefront::server;

const routing_services& fuzz_app() {
    static const server_config config = [] {
        // The executable's own defaults (random secrets included), so new settings need no change here.
        const char* const argv[] = {"storefront", "--generated-locations=1000", "--access-log=false"};
        return *parse_config(3, argv).config;
    }();
    static composition_root app(config);
    return app.routing();
}

void send(http::verb verb, std::string_view target, std::string_view content_type, std::string_view body) {
    http_request request{verb, target, 11};
    request.set(http::field::host, "fuzz");
    request.set(http::field::content_type, content_type);
    request.body() = std::string(body);
    request.prepare_payload();
    boost::asio::io_context io;
    boost::asio::co_spawn(io, dispatch(request, fuzz_app()), [](std::exception_ptr e, response) {
        if (e) {
            std::rethrow_exception(e);
        }
    });
    io.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    for (const char* type : {"application/json", "application/x-www-form-urlencoded"}) {
        send(http::verb::post, "/api/v1/users/is-available", type, body);
        send(http::verb::post, "/api/v1/auth/refresh-token", type, body);
        send(http::verb::post, "/api/v1/products", type, body);
        send(http::verb::put, "/api/v1/products/1", type, body);
        send(http::verb::post, "/api/v1/categories", type, body);
        send(http::verb::put, "/api/v1/categories/1", type, body);
        (void)decode_body(type, body);  // what login does before Argon2id
        // Registration and user updates only as far as their rules: both hash a password next.
        if (const auto fields = decode_input(type, body)) {
            (void)storefront::core::read_user_registration(*fields);
            (void)storefront::core::read_user_update(*fields);
        }
    }
    return 0;
}
