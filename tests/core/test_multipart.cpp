// multipart/form-data: boundaries from Content-Type values, well-formed bodies (files and fields, quoted
// parameters, a preamble) and the malformed ones that must be refused.
#include <string>

#include <boost/test/unit_test.hpp>

#include "core/multipart.hpp"

using namespace storefront::core;

namespace {

std::string body_of(const std::string& boundary, const std::string& parts) {
    return parts + "--" + boundary + "--\r\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(multipart)

BOOST_AUTO_TEST_CASE(boundaries) {
    BOOST_TEST(multipart_boundary("multipart/form-data; boundary=abc123").value() == "abc123");
    BOOST_TEST(multipart_boundary("Multipart/Form-Data;boundary=\"a b:c\"").value() == "a b:c");
    BOOST_TEST(multipart_boundary("multipart/form-data; charset=utf-8; boundary=----x").value() == "----x");
    BOOST_TEST(!multipart_boundary("multipart/form-data"));
    BOOST_TEST(!multipart_boundary("multipart/mixed; boundary=abc"));
    BOOST_TEST(!multipart_boundary("application/json"));
    BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')));
    BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=a<b"));
    BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=\"unterminated"));
}

BOOST_AUTO_TEST_CASE(a_file_and_a_field) {
    const std::string body = body_of(
        "XyZ",
        "--XyZ\r\n"
        "Content-Disposition: form-data; name=\"file\"; filename=\"my \\\"cat\\\".png\"\r\n"
        "Content-Type: image/png\r\n\r\n"
        "\x89PNG\r\n--not-the-boundary\r\n"
        "\r\n--XyZ\r\n"
        "content-disposition: form-data; name=note\r\n\r\n"
        "hello\r\n"
    );
    const auto parts = parse_multipart(body, "XyZ");
    BOOST_TEST_REQUIRE(parts.has_value());
    BOOST_TEST_REQUIRE(parts->size() == 2u);
    BOOST_TEST((*parts)[0].name == "file");
    BOOST_TEST((*parts)[0].filename.value() == "my \"cat\".png");
    BOOST_TEST((*parts)[0].content_type == "image/png");
    BOOST_TEST((*parts)[0].body == "\x89PNG\r\n--not-the-boundary\r\n");
    BOOST_TEST((*parts)[1].name == "note");
    BOOST_TEST(!(*parts)[1].filename);
    BOOST_TEST((*parts)[1].body == "hello");
}

BOOST_AUTO_TEST_CASE(a_preamble_and_an_empty_file) {
    const std::string body =
        "ignored preamble\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; "
        "filename=\"\"\r\n\r\n\r\n--b--";
    const auto parts = parse_multipart(body, "b");
    BOOST_TEST_REQUIRE(parts.has_value());
    BOOST_TEST((*parts)[0].body.empty());
    BOOST_TEST((*parts)[0].filename.value().empty());
}

BOOST_AUTO_TEST_CASE(malformed_bodies_are_refused) {
    const std::string good_part = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n";
    BOOST_TEST(parse_multipart(good_part + "--b--", "b").has_value());
    for (const std::string& bad : {
             std::string(""),
             std::string("no boundary at all"),
             good_part,                                                         // no close delimiter
             std::string("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--"),  // no disposition
             std::string("--b\r\nContent-Disposition: attachment; name=\"f\"\r\n\r\nx\r\n--b--"),
             std::string("--b\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\nx\r\n--b--"
             ),  // no name
             std::string("--b\r\nContent-Disposition: form-data; name=\"f\r\n\r\nx\r\n--b--"),
             std::string("--b\r\nbroken header line\r\n\r\nx\r\n--b--"),
             std::string("--bX\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n--b--"),
         }) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!parse_multipart(bad, "b"));
        }
    }
    std::string many;
    for (int i = 0; i < 17; ++i) {
        many += good_part;
    }
    BOOST_TEST(!parse_multipart(many + "--b--", "b"));
}

BOOST_AUTO_TEST_SUITE_END()
