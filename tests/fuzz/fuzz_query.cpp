// libFuzzer harness: bytes as a query string, through Boost.URL target parsing and the pagination and
// location query parsers, then a location search with whatever they accept.

#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/url/parse.hpp>

#include "core/location_index.hpp"
#include "core/location_query.hpp"
#include "core/pagination.hpp"

namespace {

const storefront::core::location_index& fuzz_index() {
    static const storefront::core::location_index index = [] {
        std::vector<storefront::core::indexed_point> points;
        for (std::uint32_t i = 0; i < 2000; ++i) {
            points.push_back({i, {-90.0 + (i * 0.09), -180.0 + (i * 0.18)}});
        }
        return storefront::core::location_index(points);
    }();
    return index;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string target = "/api/v1/locations?" + std::string(reinterpret_cast<const char*>(data), size);
    const auto url = boost::urls::parse_origin_form(target);
    if (!url) {
        return 0;
    }
    storefront::core::query_params params;
    for (const auto param : url->params()) {
        params.push_back({param.key, param.value});
    }
    (void)storefront::core::parse_page(params);
    const auto query = storefront::core::parse_location_query(params);
    if (query && query->origin) {
        (void)fuzz_index().nearest(*query->origin, query->size, query->radius_km.value_or(1e9));
    }
    return 0;
}
