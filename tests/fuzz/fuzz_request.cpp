// libFuzzer harness: raw bytes as one HTTP request through the framing policy, Beast's parser, body
// limits and the router, exactly as a session would take them (minus the socket).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "server/composition_root.hpp"
#include "server/ops/config_parser.hpp"
#include "server/routing/dispatch.hpp"
#include "server/transport/framing_policy.hpp"

namespace {

using namespace storefront::server;

const server_config& fuzz_config() {
    static const server_config config = [] {
        // The executable's own defaults (random secrets included), so new settings need no change here.
        const char* const argv[] = {"storefront", "--generated-locations=2000", "--access-log=false"};
        return *parse_config(3, argv).config;
    }();
    return config;
}

const routing_services& fuzz_app() {
    static composition_root app(fuzz_config());
    return app.routing();
}

// Requests that would spend ~30 ms of Argon2id each are parsed but not dispatched: they only slow the
// fuzzer down, and the password code has its own unit tests.
bool spends_argon2(std::string_view target) {
    return target.find("/login") != std::string_view::npos || target.rfind("/api/v3/user", 0) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto& limits = fuzz_config().limits;
    const std::size_t end = header_section_end(bytes);
    if (end == std::string_view::npos) {
        return 0;
    }
    request_parser parser;
    if (admit_header(bytes.substr(0, end), parser, limits)) {
        return 0;
    }
    if (!parser.is_done()) {
        parser.body_limit(limits.body_limit);  // dispatch() then applies the route's own limit
        parser.eager(true);
        boost::system::error_code ec;
        const std::string_view body = bytes.substr(end);
        parser.put(boost::asio::buffer(body.data(), body.size()), ec);
        if (ec || !parser.is_done()) {
            return 0;
        }
    }
    if (spends_argon2(parser.get().target())) {
        return 0;
    }
    boost::asio::io_context io;
    boost::asio::co_spawn(io, dispatch(parser.get(), fuzz_app()), [](std::exception_ptr e, response) {
        if (e) {
            std::rethrow_exception(e);  // dispatch must never throw: make the fuzzer report it
        }
    });
    io.run();
    return 0;
}
