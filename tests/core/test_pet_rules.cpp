// Pet store rules: enum names, the findByStatus/findByTags filters, RFC 3339 date-times, usernames and
// image sniffing.
#include <ostream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/pet_rules.hpp"

using namespace storefront::core;

// Printable enums for test failure messages.
namespace storefront::core {
std::ostream& operator<<(std::ostream& os, pet_status s) {
    return os << to_string(s);
}
std::ostream& operator<<(std::ostream& os, order_status s) {
    return os << to_string(s);
}
}  // namespace storefront::core

namespace {

query_params params(std::vector<std::pair<std::string, std::string>> pairs) {
    query_params out;
    for (auto& [name, value] : pairs) {
        out.push_back({name, value});
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pet_rules)

BOOST_AUTO_TEST_CASE(enum_names_round_trip) {
    for (const auto s : {pet_status::available, pet_status::pending, pet_status::sold}) {
        BOOST_TEST((parse_pet_status(to_string(s)) == s));
    }
    for (const auto s : {order_status::placed, order_status::approved, order_status::delivered}) {
        BOOST_TEST((parse_order_status(to_string(s)) == s));
    }
    BOOST_TEST(!parse_pet_status("Available"));
    BOOST_TEST(!parse_pet_status(""));
    BOOST_TEST(!parse_order_status("shipped"));
}

BOOST_AUTO_TEST_CASE(status_filter) {
    using statuses = std::vector<pet_status>;
    BOOST_TEST((*parse_status_filter({}) == statuses{pet_status::available}));
    BOOST_TEST((*parse_status_filter(params({{"status", "sold"}})) == statuses{pet_status::sold}));
    BOOST_TEST(
        (*parse_status_filter(params({{"status", "sold,pending,sold"}})) ==
         statuses{pet_status::sold, pet_status::pending})
    );
    BOOST_TEST(
        (*parse_status_filter(params({{"status", "sold"}, {"other", "x"}, {"status", "available"}})) ==
         statuses{pet_status::sold, pet_status::available})
    );
    const auto bad = parse_status_filter(params({{"status", "sold,x"}}));
    BOOST_TEST_REQUIRE(!bad);
    BOOST_TEST(
        bad.error().messages.at(0) ==
        "Input error: query parameter `status` value `x` is not in the allowable values `[available, "
        "pending, sold]`"
    );
    BOOST_TEST(!parse_status_filter(params({{"status", ""}})));
}

BOOST_AUTO_TEST_CASE(tag_filter) {
    using tags = std::vector<std::string>;
    BOOST_TEST(
        (*parse_tag_filter(params({{"tags", "a,b"}, {"tags", "a"}, {"tags", "c"}})) == tags{"a", "b", "c"})
    );
    BOOST_TEST((*parse_tag_filter(params({{"tags", ",a,"}})) == tags{"a"}));
    BOOST_TEST(parse_tag_filter({}).error().messages.at(0) == "tags is required");
    BOOST_TEST(!parse_tag_filter(params({{"tags", ","}})));
}

BOOST_AUTO_TEST_CASE(date_times) {
    BOOST_TEST((parse_date_time("1970-01-01T00:00:00Z") == 0));
    BOOST_TEST((parse_date_time("2026-01-01T00:00:00.000Z") == 1'767'225'600'000));
    BOOST_TEST((parse_date_time("2026-01-01T02:00:00.25+02:00") == 1'767'225'600'250));
    BOOST_TEST((parse_date_time("2025-12-31T23:30:00-00:30") == 1'767'225'600'000));
    BOOST_TEST((parse_date_time("2024-02-29t12:00:00.123456789z") == 1'709'208'000'123));
    for (const std::string bad :
         {"",
          "2026-01-01",
          "2026-01-01T00:00:00",
          "2026-02-30T00:00:00Z",
          "2026-13-01T00:00:00Z",
          "2026-01-01T24:00:00Z",
          "2026-01-01T00:00:00.Z",
          "2026-01-01T00:00:00+0200",
          "2026-01-01 00:00:00Z",
          "yesterday",
          "2026-01-01T00:00:00Zjunk"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!parse_date_time(bad));
        }
    }
}

BOOST_AUTO_TEST_CASE(usernames) {
    BOOST_TEST(valid_username("user1"));
    BOOST_TEST(valid_username("a.b_c-d@e+f"));
    BOOST_TEST(valid_username(std::string(64, 'a')));
    BOOST_TEST(!valid_username(std::string(65, 'a')));
    for (const std::string bad : {"", "a b", "a/b", "a?b", "é", "a%2F"}) {
        BOOST_TEST(!valid_username(bad), bad);
    }
}

BOOST_AUTO_TEST_CASE(image_types) {
    using namespace std::string_view_literals;
    BOOST_TEST(sniff_image_type("\x89PNG\r\n\x1a\nrest"sv) == "image/png");
    BOOST_TEST(sniff_image_type("\xff\xd8\xff\xe0"sv) == "image/jpeg");
    BOOST_TEST(sniff_image_type("GIF89a..."sv) == "image/gif");
    BOOST_TEST(sniff_image_type("RIFF\x01\x02\x03\x04WEBPVP8"sv) == "image/webp");
    BOOST_TEST(sniff_image_type("RIFF"sv) == "application/octet-stream");
    BOOST_TEST(sniff_image_type(""sv) == "application/octet-stream");
    BOOST_TEST(sniff_image_type("hello"sv) == "application/octet-stream");
}

BOOST_AUTO_TEST_CASE(upload_types) {
    for (const std::string ok :
         {"", "application/octet-stream", "image/png", "image/jpeg", "image/gif", "image/webp"}) {
        BOOST_TEST_CONTEXT(ok) {
            BOOST_TEST(pet_upload_type_allowed(ok));
        }
    }
    for (const std::string bad : {"text/html", "image/svg+xml", "application/json"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!pet_upload_type_allowed(bad));
        }
    }
    const std::string png = "\x89PNG\r\n\x1a\n0000";
    BOOST_TEST(pet_image_media_type("", png) == "image/png");
    BOOST_TEST(pet_image_media_type("application/octet-stream", png) == "image/png");
    BOOST_TEST(pet_image_media_type("image/gif", png) == "image/gif");  // a declared image type wins
}

BOOST_AUTO_TEST_SUITE_END()
