// End to end over HTTP: random locations, nearest-first searches around an origin, the withDistance
// field, and bad queries.

#include <cmath>
#include <set>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/geo.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

double distance_from(const core::geo_point& origin, const json::value& location) {
    return core::great_circle_km(
        origin, {location.at("latitude").to_number<double>(), location.at("longitude").to_number<double>()}
    );
}

}  // namespace

BOOST_AUTO_TEST_SUITE(locations_endpoint)

BOOST_AUTO_TEST_CASE(random_locations_are_distinct_and_sized) {
    const auto port = shared_server().port();
    const auto five = get(port, "/api/v1/locations");
    BOOST_TEST(five.status == 200u);
    BOOST_TEST(five.json().as_array().size() == 5u);
    const auto fifty = get(port, "/api/v1/locations?size=50").json().as_array();
    BOOST_TEST(fifty.size() == 50u);
    std::set<std::int64_t> ids;
    for (const auto& l : fifty) {
        ids.insert(l.at("id").as_int64());
        BOOST_TEST(l.at("name").is_string());
        BOOST_TEST(l.at("description").is_string());
        BOOST_TEST(std::abs(l.at("latitude").to_number<double>()) <= 90.0);
        BOOST_TEST(std::abs(l.at("longitude").to_number<double>()) <= 180.0);
    }
    BOOST_TEST(ids.size() == 50u);
    BOOST_TEST(fifty.at(0).at("latitude").is_double());
}

BOOST_AUTO_TEST_CASE(origin_gives_nearest_first_and_radius_bounds) {
    const auto port = shared_server().port();
    const core::geo_point bogota{4.6482784, -74.2726198};
    const auto nearest =
        get(port, "/api/v1/locations?origin=4.6482784,-74.2726198&size=10").json().as_array();
    BOOST_TEST(nearest.size() == 10u);
    double previous = 0;
    for (const auto& l : nearest) {
        const double d = distance_from(bogota, l);
        BOOST_TEST(d >= previous - 1e-9);
        previous = d;
    }
    BOOST_TEST(previous < 60.0);  // the default set has many points around Bogotá

    const auto within =
        get(port, "/api/v1/locations?origin=4.6482784,-74.2726198&radius=2&size=50").json().as_array();
    for (const auto& l : within) {
        BOOST_TEST(distance_from(bogota, l) <= 2.0 + 1e-6);
    }
    BOOST_TEST(within.size() <= 50u);

    // Across the antimeridian: a point at 179.99 E finds neighbours at -179.x W as near ones.
    const auto fiji = get(port, "/api/v1/locations?origin=-17.8,179.99&size=5").json().as_array();
    BOOST_TEST(fiji.size() == 5u);
    BOOST_TEST(distance_from({-17.8, 179.99}, fiji.at(0)) < 300.0);

    const auto none = get(port, "/api/v1/locations?origin=0,-150&radius=0").json().as_array();
    BOOST_TEST(none.empty());  // middle of the Pacific
}

// withDistance=true adds "distance" (great-circle km, rounded to metres) as the last field of each result;
// without it, or with false, the objects are exactly the default ones.
BOOST_AUTO_TEST_CASE(with_distance_adds_kilometres_rounded_to_metres) {
    const auto port = shared_server().port();
    for (const std::string origin : {"4.6482784,-74.2726198", "0,-140", "-17.8,179.99", "89.9,10"}) {
        BOOST_TEST_CONTEXT(origin) {
            const auto base = "/api/v1/locations?origin=" + origin + "&size=7";
            const auto plain = get(port, base);
            const auto with = get(port, base + "&withDistance=true").json().as_array();
            const auto without = get(port, base + "&withDistance=false");
            BOOST_TEST(without.body == plain.body);
            const auto plain_items = plain.json().as_array();
            BOOST_TEST_REQUIRE(with.size() == plain_items.size());
            BOOST_TEST(with.size() == 7u);
            const auto comma = origin.find(',');
            const core::geo_point o{std::stod(origin.substr(0, comma)), std::stod(origin.substr(comma + 1))};
            double previous = 0;
            for (std::size_t i = 0; i < with.size(); ++i) {
                auto object = with.at(i).as_object();
                BOOST_TEST_REQUIRE(object.contains("distance"));
                BOOST_TEST((object.end() - 1)->key() == "distance");
                const double km = object.at("distance").to_number<double>();
                BOOST_TEST(std::abs(km - distance_from(o, with.at(i))) <= 0.0005 + 1e-9);
                BOOST_TEST(std::abs(km * 1000 - std::round(km * 1000)) < 1e-6);  // whole metres
                BOOST_TEST(km >= previous);
                previous = km;
                object.erase("distance");
                BOOST_TEST(json::value(object) == plain_items.at(i));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_location_queries_are_400) {
    const auto port = shared_server().port();
    const std::vector<std::string> table{
        "size=0",
        "size=51",
        "size=-1",
        "size=ten",
        "size=1&size=2",
        "origin=abc",
        "origin=4.6",
        "origin=91,0",
        "origin=0,181",
        "origin=1,2,3",
        "origin=0,0&radius=-5",
        "origin=0,0&radius=far",
        "radius=10",
        "origin=0,0&origin=1,1",
        "origin=nan,0",
        "origin=0,0&radius=inf",
        "withDistance=true",
        "size=5&withDistance=true",
        "origin=0,0&withDistance=1",
        "origin=0,0&withDistance=yes",
        "origin=0,0&withDistance=true&withDistance=false",
    };
    for (const auto& query : table) {
        BOOST_TEST_CONTEXT(query) {
            const auto reply = get(port, "/api/v1/locations?" + query);
            BOOST_TEST(reply.status == 400u);
            const auto body = reply.json();
            BOOST_TEST(body.at("statusCode").as_int64() == 400);
            BOOST_TEST(!body.at("message").as_array().empty());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
