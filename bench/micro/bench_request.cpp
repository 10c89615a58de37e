// Request handling below the socket: Beast's request_parser on a raw GET, the router's dispatch (target
// parse, route match, query decode, handler) driven on an io_context, and the two together.

#include <benchmark/benchmark.h>
#include <memory>
#include <stdexcept>
#include <string_view>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/composition_root.hpp"
#include "server/routing/dispatch.hpp"

namespace {

using namespace storefront;
namespace http = boost::beast::http;

constexpr std::string_view raw_products =
    "GET /api/v1/products?offset=0&limit=10 HTTP/1.1\r\n"
    "Host: 127.0.0.1:8080\r\n"
    "User-Agent: bench\r\n"
    "Accept: */*\r\n"
    "\r\n";

server::http_request parse(std::string_view raw) {
    http::request_parser<http::string_body> parser;
    boost::system::error_code ec;
    parser.eager(true);
    parser.put(boost::asio::buffer(raw.data(), raw.size()), ec);
    if (ec || !parser.is_done()) {
        throw std::runtime_error("parse failed: " + ec.message());
    }
    return parser.release();
}

const server::routing_services& app() {
    static const server::server_config config = [] {
        server::server_config c;
        c.tokens.access_secret = "bench-access-secret-0123456789";
        c.tokens.refresh_secret = "bench-refresh-secret-0123456789";
        c.storage.generated_locations = 1000;
        c.access_log = false;
        return c;
    }();
    static server::composition_root instance(config);
    return instance.routing();
}

// Runs dispatch to completion on `io` and returns the body size.
std::size_t dispatch_once(boost::asio::io_context& io, const server::http_request& request) {
    std::size_t size = 0;
    boost::asio::co_spawn(
        io,
        server::dispatch(request, app()),
        [&](std::exception_ptr e, server::response r) {
            if (e) {
                std::rethrow_exception(e);
            }
            size = r.payload().size();
        }
    );
    io.restart();
    io.run();
    return size;
}

void BM_parse_get(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(parse(raw_products));
    }
}
BENCHMARK(BM_parse_get);

void run_dispatch(benchmark::State& state, std::string_view target) {
    boost::asio::io_context io(1);
    server::http_request request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    for (auto _ : state) {
        benchmark::DoNotOptimize(dispatch_once(io, request));
    }
}

void BM_dispatch_products(benchmark::State& state) {
    run_dispatch(state, "/api/v1/products?offset=0&limit=10");
}
BENCHMARK(BM_dispatch_products);

void BM_dispatch_categories(benchmark::State& state) {
    run_dispatch(state, "/api/v1/categories");
}
BENCHMARK(BM_dispatch_categories);

void BM_dispatch_locations_origin(benchmark::State& state) {
    run_dispatch(state, "/api/v1/locations?origin=4.6482784,-74.2726198&radius=100&size=5");
}
BENCHMARK(BM_dispatch_locations_origin);

void BM_dispatch_not_found(benchmark::State& state) {
    run_dispatch(state, "/api/v1/nothing-here");
}
BENCHMARK(BM_dispatch_not_found);

// An empty co_spawn + run round trip: the io_context share of the dispatch figures above.
void BM_io_context_round_trip(benchmark::State& state) {
    boost::asio::io_context io(1);
    for (auto _ : state) {
        int done = 0;
        boost::asio::co_spawn(
            io,
            []() -> boost::asio::awaitable<int> { co_return 1; },
            [&](std::exception_ptr, int v) { done = v; }
        );
        io.restart();
        io.run();
        benchmark::DoNotOptimize(done);
    }
}
BENCHMARK(BM_io_context_round_trip);

void BM_parse_and_dispatch_products(benchmark::State& state) {
    boost::asio::io_context io(1);
    for (auto _ : state) {
        const auto request = parse(raw_products);
        benchmark::DoNotOptimize(dispatch_once(io, request));
    }
}
BENCHMARK(BM_parse_and_dispatch_products);

}  // namespace
