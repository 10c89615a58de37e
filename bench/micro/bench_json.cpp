// JSON of a products page (offset 0, limit 10) three ways: from structs per request, concatenated from
// the per-revision fragments, and the cached shared page the server actually answers with. Plus the
// /locations body (5 locations), which is serialised per request.

#include <benchmark/benchmark.h>
#include <limits>
#include <memory>

#include "server/api/store/json_mapping.hpp"
#include "server/caches/response_cache.hpp"
#include "storage/factory.hpp"

namespace {

using namespace storefront;

const storage::catalogue_store& catalogue() {
    static const auto store = storage::make_catalogue_store(storage::storage_config{});
    return *store;
}

server::serialised_items all_product_fragments() {
    server::serialised_items out;
    for (const auto& p : catalogue().list_products({}, {0, std::numeric_limits<std::size_t>::max() / 2})) {
        out.ids.push_back(p.id);
        out.json.push_back(server::to_json(p, "http://127.0.0.1:8080"));
    }
    return out;
}

// Every product serialised from its struct: what a server without caches does per request.
void BM_products_page_from_structs(benchmark::State& state) {
    const auto products = catalogue().list_products({}, {0, 10});
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string body = server::to_json_array(products, "http://127.0.0.1:8080");
        bytes += body.size();
        benchmark::DoNotOptimize(body.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_products_page_from_structs);

// Concatenating prebuilt per-product fragments into a new string (a page-cache miss).
void BM_products_page_from_fragments(benchmark::State& state) {
    const auto fragments = all_product_fragments().json;
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::string body = "[";
        for (std::size_t i = 0; i < 10; ++i) {
            if (i != 0) {
                body += ',';
            }
            body += fragments[i];
        }
        body += ']';
        bytes += body.size();
        benchmark::DoNotOptimize(body.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_products_page_from_fragments);

// The server's path: fragment_list::page, a cache hit handing out shared bytes (revision check included).
void BM_products_page_cached(benchmark::State& state) {
    server::fragment_list list([] { return catalogue().revision(); }, all_product_fragments);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto body = list.page({0, 10});
        bytes += body->bytes().size();
        benchmark::DoNotOptimize(body.get());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_products_page_cached)->ThreadRange(1, 2);

void BM_locations_5(benchmark::State& state) {
    static const auto store = storage::make_location_store(storage::storage_config{});
    const auto locations = store->nearest_locations({4.6482784, -74.2726198}, 5, 100.0);
    for (auto _ : state) {
        benchmark::DoNotOptimize(server::to_json_array(locations));
    }
}
BENCHMARK(BM_locations_5);

}  // namespace
