// Location handler: random samples, or great-circle nearest-first searches around an origin, answered
// from the pre-serialised objects of store_services::location_objects().

#include <array>
#include <cmath>
#include <random>
#include <span>
#include <string_view>

#include "core/location_query.hpp"
#include "server/api/store/handlers.hpp"
#include "server/codec/etag.hpp"
#include "server/codec/json_writer.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

std::uint64_t next_sample_seed() {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return generator();
}

// Room for `,"distance":` and a number of kilometres with three decimals.
constexpr std::size_t distance_bytes = 32;

// The objects at `found`'s positions as one JSON array; with `with_distance`, each gains the great-circle
// kilometres rounded to metres. Sized up front, so the body is one allocation.
std::string locations_body(
    const location_json& objects, std::span<const core::neighbour> found, bool with_distance
) {
    std::size_t bytes = 2 + found.size() * (2 + (with_distance ? distance_bytes : 0));
    for (const core::neighbour& n : found) {
        const std::string_view object = objects.open_object(n.slot);
        bytes += object.size();
        // The objects lie far apart in a buffer of megabytes: start every cache miss now, so they overlap
        // instead of stalling the appends below one by one.
        for (std::size_t line = 0; line < object.size(); line += 64) {
            __builtin_prefetch(object.data() + line);
        }
    }
    std::string body;
    body.reserve(bytes);
    body += '[';
    for (const core::neighbour& n : found) {
        if (body.size() > 1) {
            body += ',';
        }
        body += objects.open_object(n.slot);
        if (with_distance) {
            body += R"(,"distance":)";
            append_json_thousandths(body, n.distance_km);
        }
        body += '}';
    }
    body += ']';
    return body;
}

// What the body is made of: the set (its fingerprint), which objects, and the distances written, so the
// ETag costs a hash of a few dozen bytes instead of the whole body.
std::string locations_etag(
    const location_json& objects, std::span<const core::neighbour> found, bool with_distance
) {
    std::string basis(objects.fingerprint());
    basis += with_distance ? 'd' : '-';
    for (const core::neighbour& n : found) {
        basis.append(reinterpret_cast<const char*>(&n.slot), sizeof n.slot);
        if (with_distance) {
            const double written = std::round(n.distance_km * 1000) / 1000;
            basis.append(reinterpret_cast<const char*>(&written), sizeof written);
        }
    }
    return derived_etag(basis);
}

// The answer to a valid query. A plain function, not the coroutine: its arrays (a kilobyte) stay on the
// stack instead of enlarging the coroutine's frame past what asio recycles per thread.
response locations_answer(const core::location_query& query, store_services& app) {
    std::array<core::neighbour, core::max_location_size> found{};  // positions (and km) into the store
    std::size_t count = 0;
    if (query.origin) {
        count = app.locations().nearest_positions(
            *query.origin, query.radius_km, std::span(found).first(query.size)
        );
    } else {
        std::array<std::uint32_t, core::max_location_size> positions{};
        count = app.locations().random_positions(next_sample_seed(), std::span(positions).first(query.size));
        for (std::size_t i = 0; i < count; ++i) {
            found[i].slot = positions[i];
        }
    }
    const auto answer = std::span(found).first(count);
    response r =
        json_response(http::status::ok, locations_body(app.location_objects(), answer, query.with_distance));
    r.deterministic = query.origin.has_value();  // a random sample gets no ETag
    if (r.deterministic) {
        r.set_etag(locations_etag(app.location_objects(), answer, query.with_distance));
    }
    return r;
}

}  // namespace

// GET /locations?size=&origin=lat,lng&radius=km&withDistance= : random locations, or the nearest to origin
handler_result handle_get_locations(request_context& ctx, store_services& app) {
    const auto query = core::parse_location_query(ctx.query);
    if (!query) {
        co_return validation_failed(query.error());
    }
    co_return locations_answer(*query, app);
}

}  // namespace storefront::server
