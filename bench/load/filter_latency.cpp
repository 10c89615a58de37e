// The store alone, without HTTP or thread hand-offs: the latency of never-repeated filters that match
// nothing (a title no product has, with a price range and a category), list_products + count_products as a
// cache miss makes them, on a store already loaded (bench/load/load_products.py) or, for `memory`, filled
// here to 100,000 products. Prints p50, p99 and the maximum in microseconds.
//
//   filter_latency STORAGE [QUERIES]      e.g. filter_latency sqlite:/tmp/f.db 5000

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "storage/factory.hpp"

namespace core = storefront::core;
namespace storage = storefront::storage;

namespace {

// Memory has no file to load: the same shape of titles as load_products.py, up to the store's cap.
void fill_memory(storage::catalogue_store& store) {
    const std::array<const char*, 5> words = {"Classic", "Cotton", "Lamp", "Wooden", "Shirt"};
    for (std::size_t i = store.count_products({}); i < 100'000; ++i) {
        const std::string title =
            std::string(words[i % 5]) + " " + words[(i / 5) % 5] + " " + std::to_string(i);
        const double price = 1.0 + static_cast<double>(i % 1000);
        const auto category = static_cast<std::int64_t>(1 + i % 5);
        if (!store.create_product({title, price, "d", category, {"https://x.com/a.png"}})) {
            std::fprintf(stderr, "create_product failed at %zu\n", i);
            std::exit(1);
        }
    }
}

double micros_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: filter_latency STORAGE [QUERIES]\n");
        return 2;
    }
    storage::storage_config config;
    config.backend = argv[1];
    const int queries = argc > 2 ? std::atoi(argv[2]) : 5000;
    auto store = storage::make_catalogue_store(config);
    if (config.backend == "memory") {
        fill_memory(*store);
    }
    const std::size_t products = store->count_products({});
    std::vector<double> took;
    for (int i = -200; i < queries; ++i) {  // the first 200 warm the connection and the pages up
        core::product_filter filter;
        filter.title = "zq" + std::to_string(i + 1000) + "x";
        filter.price_min = 10;
        filter.price_max = 500;
        filter.category_id = 1;
        const auto start = std::chrono::steady_clock::now();
        const auto page = store->list_products(filter, {0, 10});
        const auto count = store->count_products(filter);
        const double us = micros_since(start);
        if (!page.empty() || count != 0) {
            std::fprintf(stderr, "a filter matched something\n");
            return 1;
        }
        if (i >= 0) {
            took.push_back(us);
        }
    }
    std::sort(took.begin(), took.end());
    const auto at = [&](double q) {
        return took[static_cast<std::size_t>(q * static_cast<double>(took.size() - 1))];
    };
    std::printf(
        "%s products=%zu queries=%d p50_us=%.0f p99_us=%.0f max_us=%.0f\n",
        argv[1],
        products,
        queries,
        at(0.5),
        at(0.99),
        took.back()
    );
    return 0;
}
