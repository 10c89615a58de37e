// Server pieces without sockets: number and date formatting, body decoding, response heads, error mapping.

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "core/errc.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"
#include "server/transport/wire.hpp"

using namespace storefront;
using namespace storefront::server;

BOOST_AUTO_TEST_SUITE(json_writer_numbers)

BOOST_AUTO_TEST_CASE(numbers_print_in_plain_shortest_form) {
    const std::vector<std::pair<double, std::string>> table{
        {44.0, "44"}, {4.3, "4.3"}, {-74.2726198, "-74.2726198"}, {0.0, "0"}, {90.0, "90"}, {1e-7, "1e-07"}};
    for (const auto& [number, text] : table) {
        BOOST_TEST_CONTEXT(text) {
            std::string out;
            json_writer(out).value(number);
            BOOST_TEST(out == text);
            BOOST_TEST(boost::json::parse(out).to_number<double>() == number);
        }
    }
}

// The distances' shortcut writes exactly what the general path writes for the rounded value.
BOOST_AUTO_TEST_CASE(thousandths_print_as_the_rounded_number_would) {
    std::vector<double> values{0.0,        -0.0,    0.0004,     0.0005,       0.001, 0.01, 0.1,       0.5,
                               1,          9.9995,  10,         12.5,         100,   1000, 9999.9996, 10000,
                               20015.0868, 20037.5, 123456.789, 1e9 - 0.0001, 1e12,  -1.5};
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> distance(0.0, 20040.0);
    for (int i = 0; i < 100000; ++i) {
        values.push_back(distance(random));
    }
    for (const double v : values) {
        std::string expected;
        append_json_number(expected, std::round(v * 1000) / 1000);
        std::string got;
        append_json_thousandths(got, v);
        BOOST_TEST_REQUIRE(got == expected, "for " << v);
    }
}

BOOST_AUTO_TEST_CASE(strings_are_escaped) {
    std::string out;
    json_writer(out).begin_object().key("a\"b").value("line\nbreak\\").end_object();
    BOOST_TEST(boost::json::parse(out).at("a\"b").as_string() == "line\nbreak\\");
}

BOOST_AUTO_TEST_CASE(iso8601_with_milliseconds) {
    BOOST_TEST(iso8601_ms(0) == "1970-01-01T00:00:00.000Z");
    BOOST_TEST(iso8601_ms(1767225600123) == "2026-01-01T00:00:00.123Z");
    BOOST_TEST(iso8601_ms(1798761599999) == "2026-12-31T23:59:59.999Z");
    BOOST_TEST(iso8601_ms(951782400000) == "2000-02-29T00:00:00.000Z");  // a leap day
    BOOST_TEST(iso8601_ms(-1) == "1969-12-31T23:59:59.999Z");
    BOOST_TEST(iso8601_ms(253402300800000) == "10000-01-01T00:00:00.000Z");  // past four digits
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(body_decoding)

BOOST_AUTO_TEST_CASE(json_and_form_bodies_become_fields) {
    auto json = decode_body("application/json; charset=utf-8", R"({"email":"a@b.co","n":5})");
    BOOST_TEST_REQUIRE((json).has_value());
    const auto& fields = (*json);
    BOOST_TEST(fields.string("email").value() == "a@b.co");
    BOOST_TEST(!fields.string("n").has_value());
    BOOST_TEST(fields.find("n")->text == "5");

    auto form = decode_body("Application/X-WWW-Form-Urlencoded", "email=a%40b.co&name=John+Doe");
    BOOST_TEST_REQUIRE((form).has_value());
    BOOST_TEST((*form).string("name").value() == "John Doe");
    BOOST_TEST((*form).string("email").value() == "a@b.co");
}

BOOST_AUTO_TEST_CASE(bad_bodies_become_4xx_responses) {
    const std::vector<std::tuple<std::string, std::string, unsigned>> table{
        {"application/json", "{", 400},
        {"application/json", "[1]", 400},
        {"application/json", "", 400},
        {"application/json", std::string(100, '[') + std::string(100, ']'), 400},
        {"text/plain", "email=x", 415},
        {"", "email=x", 415},
        {"multipart/form-data; boundary=x", "--x--", 415},
        {"application/x-www-form-urlencoded", "a=1&a=2", 400},
        {"application/x-www-form-urlencoded", "a=%zz", 400},
    };
    for (const auto& [type, body, status] : table) {
        BOOST_TEST_CONTEXT(type << " | " << body.substr(0, 20)) {
            auto decoded = decode_body(type, body);
            BOOST_TEST_REQUIRE(decoded.has_error());
            BOOST_TEST(static_cast<unsigned>(decoded.error().status) == status);
        }
    }
    BOOST_TEST((decode_body("", "")).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(response_heads)

BOOST_AUTO_TEST_CASE(head_has_fixed_headers_length_and_connection) {
    response r = json_response(http::status::ok, "[1,2]");
    std::string head;
    write_head(head, r, {.keep_alive = true});
    BOOST_TEST(head.rfind("HTTP/1.1 200 OK\r\nDate: ", 0) == 0u);
    BOOST_TEST(head.find("Content-Type: application/json; charset=utf-8\r\n") != std::string::npos);
    BOOST_TEST(head.find("Access-Control-Allow-Origin: *\r\n") != std::string::npos);
    BOOST_TEST(head.find("X-Content-Type-Options: nosniff\r\n") != std::string::npos);
    BOOST_TEST(head.find("Content-Length: 5\r\n") != std::string::npos);
    BOOST_TEST(head.find("Connection") == std::string::npos);
    BOOST_TEST(head.substr(head.size() - 4) == "\r\n\r\n");

    write_head(head, r, {.keep_alive = false});
    BOOST_TEST(head.find("Connection: close\r\n") != std::string::npos);
    write_head(head, r, {.keep_alive = true, .http10 = true});
    BOOST_TEST(head.find("Connection: keep-alive\r\n") != std::string::npos);

    response empty;
    empty.status = http::status::no_content;
    write_head(head, empty, {});
    BOOST_TEST(head.find("Content-Length") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(domain_errors_map_to_statuses) {
    BOOST_TEST(static_cast<unsigned>(error_response(core::errc::invalid_credentials).status) == 401u);
    BOOST_TEST(static_cast<unsigned>(error_response(core::errc::invalid_token).status) == 401u);
    BOOST_TEST(
        rendered(error_response(core::errc::invalid_refresh_token), error_style::store).body ==
        R"({"message":"Invalid","error":"Unauthorized","statusCode":401})"
    );
    BOOST_TEST(static_cast<unsigned>(error_response(core::errc::not_found).status) == 404u);
    const auto busy = error_response(core::errc::busy);
    BOOST_TEST(static_cast<unsigned>(busy.status) == 503u);
    BOOST_TEST(busy.extra_headers.find("Retry-After: 1") != std::string::npos);
    BOOST_TEST(
        static_cast<unsigned>(
            error_response(boost::system::error_code(5, boost::system::generic_category())).status
        ) == 500u
    );
    const auto v = rendered(validation_failed({{"a must be b", "c must be d"}}), error_style::store);
    BOOST_TEST(
        v.body == R"({"message":["a must be b","c must be d"],"error":"Bad Request","statusCode":400})"
    );
}

BOOST_AUTO_TEST_SUITE_END()

// The two answers --compat changes in the error mapping, in both modes.
BOOST_AUTO_TEST_SUITE(compat_error_mapping)

BOOST_AUTO_TEST_CASE(entity_not_found_by_mode) {
    using enum core::compat_mode;
    struct row {
        missing_entity what;
        std::string message;
    };
    const std::vector<row> rows = {
        {{"Product", "id", std::int64_t{999}},
         "Could not find any entity of type \"Product\" matching: {\n    \"id\": 999\n}"},
        {{"Category", "slug", std::string("a \"b\"")},
         "Could not find any entity of type \"Category\" matching: {\n    \"slug\": \"a \\\"b\\\"\"\n}"},
        {{"User", "id", std::int64_t{-1}},
         "Could not find any entity of type \"User\" matching: {\n    \"id\": -1\n}"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.message) {
            const auto plain =
                rendered(entity_not_found(none, "/api/v1/x", r.what, "X not found"), error_style::store);
            BOOST_TEST(static_cast<unsigned>(plain.status) == 404u);
            BOOST_TEST(plain.body == R"({"message":"X not found","error":"Not Found","statusCode":404})");
            const auto compat = rendered(
                entity_not_found(public_service, "/api/v1/x/1", r.what, "X not found"), error_style::store
            );
            BOOST_TEST(static_cast<unsigned>(compat.status) == 400u);
            const auto body = boost::json::parse(compat.body).as_object();
            BOOST_TEST(body.at("path").as_string() == "/api/v1/x/1");
            BOOST_TEST(body.at("timestamp").as_string().size() == 24u);
            BOOST_TEST(body.at("name").as_string() == "EntityNotFoundError");
            BOOST_TEST(body.at("message").as_string() == r.message);
        }
    }
}

BOOST_AUTO_TEST_CASE(wrong_method_by_mode) {
    const auto plain =
        wrong_method(core::compat_mode::none, "DELETE", "/api/v1/products/", "/api/v1/products", "GET");
    BOOST_TEST(static_cast<unsigned>(plain.status) == 405u);
    BOOST_TEST(plain.extra_headers.find("Allow: GET") != std::string::npos);
    const auto compat = rendered(
        wrong_method(
            core::compat_mode::public_service, "DELETE", "/api/v1/products/", "/api/v1/products", "GET"
        ),
        error_style::store
    );
    BOOST_TEST(static_cast<unsigned>(compat.status) == 404u);
    BOOST_TEST(compat.extra_headers.find("Allow") == std::string::npos);
    BOOST_TEST(
        compat.body == R"({"message":"Cannot DELETE /api/v1/products/","error":"Not Found","statusCode":404})"
    );
}

BOOST_AUTO_TEST_SUITE_END()
