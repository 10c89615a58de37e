// Location handler: random samples, or great-circle nearest-first searches around an origin.

#include <random>

#include "core/location_query.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

std::uint64_t next_sample_seed() {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return generator();
}

}  // namespace

// GET /locations?size=&origin=lat,lng&radius=km : random locations, or the nearest to origin within radius
handler_result handle_get_locations(request_context& ctx, app_services& app) {
    const auto query = core::parse_location_query(ctx.query);
    if (!query) {
        co_return validation_failed(query.error());
    }
    const auto found = query->origin
                           ? app.locations().nearest_locations(*query->origin, query->size, query->radius_km)
                           : app.locations().random_locations(query->size, next_sample_seed());
    co_return json_response(http::status::ok, to_json_array(found));
}

}  // namespace storefront::server
