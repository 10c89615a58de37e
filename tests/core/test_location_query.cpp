// Tests for the /locations query validator: size bounds, origin pair, radius, withDistance, duplicates.
#include <optional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/location_query.hpp"
#include "query_text.hpp"

using namespace storefront::core;

using storefront::test::describe;

BOOST_AUTO_TEST_SUITE(location_query_parsing)

BOOST_AUTO_TEST_CASE(accepted_table) {
    struct row {
        query_params params;
        std::size_t size;
        std::optional<double> latitude;  // origin absent when nullopt
        double longitude;
        std::optional<double> radius;
        bool with_distance = false;
    };
    const std::vector<row> rows = {
        {{}, 5, std::nullopt, 0, std::nullopt},
        {{{"size", "1"}}, 1, std::nullopt, 0, std::nullopt},
        {{{"size", "50"}}, 50, std::nullopt, 0, std::nullopt},
        {{{"origin", "-33.8688,151.2093"}}, 5, -33.8688, 151.2093, std::nullopt},
        {{{"origin", "90,-180"}}, 5, 90.0, -180.0, std::nullopt},
        {{{"origin", "-90,180"}}, 5, -90.0, 180.0, std::nullopt},
        {{{"origin", "0,0"}, {"radius", "0"}}, 5, 0.0, 0.0, 0.0},
        {{{"radius", "12.5"}, {"origin", "48.85,2.35"}, {"size", "10"}}, 10, 48.85, 2.35, 12.5},
        {{{"origin", "1,2"}, {"radius", "1e3"}, {"offset", "x"}}, 5, 1.0, 2.0, 1000.0},  // unknown ignored
        {{{"origin", "1,2"}, {"withDistance", "true"}}, 5, 1.0, 2.0, std::nullopt, true},
        {{{"origin", "1,2"}, {"withDistance", "false"}, {"radius", "3"}}, 5, 1.0, 2.0, 3.0, false},
        {{{"origin", "1,2"}, {"withdistance", "true"}}, 5, 1.0, 2.0, std::nullopt, false},  // names are exact
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto q = parse_location_query(r.params);
            BOOST_TEST_REQUIRE(q.has_value());
            BOOST_TEST(q->size == r.size);
            BOOST_TEST_REQUIRE(q->origin.has_value() == r.latitude.has_value());
            if (r.latitude) {
                BOOST_TEST(q->origin->latitude == *r.latitude);
                BOOST_TEST(q->origin->longitude == r.longitude);
            }
            BOOST_TEST_REQUIRE(q->radius_km.has_value() == r.radius.has_value());
            if (r.radius) {
                BOOST_TEST(*q->radius_km == *r.radius);
            }
            BOOST_TEST(q->with_distance == r.with_distance);
        }
    }
}

BOOST_AUTO_TEST_CASE(rejected_table) {
    struct row {
        query_params params;
        std::vector<std::string> messages;
    };
    const std::vector<row> rows = {
        {{{"size", "0"}}, {"size must not be less than 1"}},
        {{{"size", "-3"}}, {"size must not be less than 1"}},
        {{{"size", "51"}}, {"size must not be greater than 50"}},
        {{{"size", "99999999999999999999"}}, {"size must not be greater than 50"}},
        {{{"size", "abc"}}, {"size must be a number conforming to the specified constraints"}},
        {{{"size", "2.5"}}, {"size must be a number conforming to the specified constraints"}},
        {{{"size", ""}}, {"size must be a number conforming to the specified constraints"}},
        {{{"size", "1"}, {"size", "2"}}, {"size must be given at most once"}},
        {{{"origin", ""}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "10"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "1,2,3"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "1, 2"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "1,"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", ",2"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "a,b"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "nan,0"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "1;2"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "90.5,0"}}, {"origin latitude must be between -90 and 90"}},
        {{{"origin", "0,-180.01"}}, {"origin longitude must be between -180 and 180"}},
        {{{"origin", "-91,181"}},
         {"origin latitude must be between -90 and 90", "origin longitude must be between -180 and 180"}},
        {{{"origin", "1,2"}, {"origin", "1,2"}}, {"origin must be given at most once"}},
        {{{"origin", "1,2"}, {"radius", "-1"}}, {"radius must not be less than 0"}},
        {{{"origin", "1,2"}, {"radius", "far"}},
         {"radius must be a number conforming to the specified constraints"}},
        {{{"origin", "1,2"}, {"radius", "inf"}},
         {"radius must be a number conforming to the specified constraints"}},
        {{{"origin", "1,2"}, {"radius", ""}},
         {"radius must be a number conforming to the specified constraints"}},
        {{{"origin", "1,2"}, {"radius", "1"}, {"radius", "2"}}, {"radius must be given at most once"}},
        {{{"radius", "10"}}, {"radius requires origin"}},
        {{{"radius", "-1"}}, {"radius must not be less than 0", "radius requires origin"}},
        {{{"origin", "x"}, {"radius", "10"}}, {"origin must be a latitude,longitude pair"}},
        {{{"origin", "1,2"}, {"withDistance", "yes"}}, {"withDistance must be a boolean value"}},
        {{{"origin", "1,2"}, {"withDistance", "1"}}, {"withDistance must be a boolean value"}},
        {{{"origin", "1,2"}, {"withDistance", "TRUE"}}, {"withDistance must be a boolean value"}},
        {{{"origin", "1,2"}, {"withDistance", ""}}, {"withDistance must be a boolean value"}},
        {{{"origin", "1,2"}, {"withDistance", "true"}, {"withDistance", "true"}},
         {"withDistance must be given at most once"}},
        {{{"withDistance", "true"}}, {"withDistance requires origin"}},
        {{{"radius", "1"}, {"withDistance", "no"}},
         {"withDistance must be a boolean value", "radius requires origin", "withDistance requires origin"}},
        {{{"size", "0"}, {"origin", "100,0"}, {"radius", "-2"}},
         {"size must not be less than 1",
          "origin latitude must be between -90 and 90",
          "radius must not be less than 0"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params)) {
            const auto q = parse_location_query(r.params);
            BOOST_TEST_REQUIRE(q.has_error());
            BOOST_TEST(q.error().messages == r.messages, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
